"""A safe wire format for results coming back from a child process.

The learner's process is not trusted, so its results are never unpickled: they travel as a JSON
header plus raw byte buffers, and only tensors, arrays and plain Python values are rebuilt.
Anything else (a custom object, a generator) comes back as its type name and a short repr.
"""
from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

_MAX_DEPTH = 6
_MAX_ITEMS = 64
_FRAME = struct.Struct("<Q")  # payload length
_HEADER = struct.Struct("<I")  # header length inside a payload
_MAX_MESSAGE = 1 << 31


@dataclass(frozen=True)
class TensorValue:
    """A tensor or array as the learner returned it: values on the CPU plus where they lived."""

    data: torch.Tensor | None  # None for meta tensors (no values)
    dtype: str  # "float32", "bool", …
    shape: tuple[int, ...]
    device: str  # "cpu", "cuda:0", "meta"; "numpy" for arrays
    requires_grad: bool = False

    @property
    def is_numpy(self) -> bool:
        return self.device == "numpy"


@dataclass(frozen=True)
class FloatScalar:
    """A NumPy floating scalar (np.float32(0.5), what `arr.mean()` returns): its value and its dtype."""

    value: float
    dtype: str  # "float32", "float64", "float16"


@dataclass(frozen=True)
class Opaque:
    """A value that is neither a tensor nor plain data, kept only as text."""

    type: str
    repr: str


def encode(value: Any, buffers: list[bytes], depth: int = 0) -> Any:
    if isinstance(value, torch.Tensor):
        return _encode_tensor(value, buffers)
    if isinstance(value, np.ndarray):
        return _encode_array(value, buffers)
    if isinstance(value, np.generic):
        return {"k": "npscalar", "dtype": value.dtype.name, "v": _py(value.item())}
    if value is None or isinstance(value, (bool, int, str)):
        return {"k": "py", "v": value if not isinstance(value, str) else value[:500]}
    if isinstance(value, float):
        return {"k": "py", "v": _py(value)}
    if isinstance(value, (tuple, list)) and depth < _MAX_DEPTH and len(value) <= _MAX_ITEMS:
        return {"k": type(value).__name__ if type(value) in (tuple, list) else "tuple",
                "items": [encode(v, buffers, depth + 1) for v in value]}
    if isinstance(value, dict) and depth < _MAX_DEPTH and len(value) <= _MAX_ITEMS:
        return {"k": "dict", "items": [[str(k), encode(v, buffers, depth + 1)] for k, v in value.items()]}
    return {"k": "other", "type": type(value).__name__, "repr": _safe_repr(value)}


def shifted(node: Any, by: int) -> Any:
    """An encoded value whose buffers now sit `by` places later (two messages' buffers put in one list)."""
    kind = node["k"]
    if kind in ("tensor", "ndarray"):
        return node if node["b"] is None else {**node, "b": node["b"] + by}
    if kind in ("tuple", "list"):
        return {**node, "items": [shifted(v, by) for v in node["items"]]}
    if kind == "dict":
        return {**node, "items": [[k, shifted(v, by)] for k, v in node["items"]]}
    return node


def decode(node: Any, buffers: list[bytes]) -> Any:
    kind = node["k"]
    if kind == "tensor":
        data = None if node["b"] is None else _tensor_from(buffers[node["b"]], node["dtype"], node["shape"])
        return TensorValue(data, node["dtype"], tuple(node["shape"]), node["device"], bool(node["rg"]))
    if kind == "ndarray":
        if node["b"] is None:
            return Opaque("ndarray", f"array of dtype {node['dtype']}")
        array = np.frombuffer(buffers[node["b"]], dtype=np.dtype(node["dtype"])).reshape(node["shape"])
        data = torch.from_numpy(array.copy()) if array.dtype.kind in "biuf" and array.dtype.itemsize <= 8 else None
        name = np.dtype(node["dtype"]).name
        return TensorValue(data, name, tuple(node["shape"]), "numpy") if data is not None else Opaque("ndarray", name)
    if kind == "npscalar" and np.dtype(node["dtype"]).kind == "f" and isinstance(_unpy(node["v"]), (int, float)):
        return FloatScalar(float(_unpy(node["v"])), np.dtype(node["dtype"]).name)
    if kind == "npscalar":
        return Opaque(f"numpy.{node['dtype']}", repr(node["v"]))
    if kind == "py":
        return _unpy(node["v"])
    if kind == "tuple":
        return tuple(decode(v, buffers) for v in node["items"])
    if kind == "list":
        return [decode(v, buffers) for v in node["items"]]
    if kind == "dict":
        return {k: decode(v, buffers) for k, v in node["items"]}
    if kind == "other":
        return Opaque(str(node["type"]), str(node["repr"]))
    raise ValueError(f"unknown value kind {kind!r}")


def write_message(fd: int, header: dict, buffers: list[bytes]) -> None:
    head = json.dumps(header).encode()
    offsets, at = [], 0
    for buf in buffers:
        offsets.append([at, len(buf)])
        at += len(buf)
    meta = json.dumps(offsets).encode()
    payload = b"".join([_HEADER.pack(len(head)), head, _HEADER.pack(len(meta)), meta, *buffers])
    _write_all(fd, _FRAME.pack(len(payload)) + payload)


class MessageReader:
    """Reassembles framed messages from chunks read off a pipe."""

    def __init__(self) -> None:
        self._pending = bytearray()

    def feed(self, chunk: bytes) -> list[tuple[dict, list[bytes]]]:
        # Each message's buffers are copied once, out of a view of what was read (a statistical case's outputs are
        # megabytes: copying the whole payload first, then its buffers, was a fifth of dropout's re-check).
        self._pending += chunk
        messages, start, end = [], 0, len(self._pending)
        with memoryview(self._pending) as view:
            while end - start >= _FRAME.size:
                (size,) = _FRAME.unpack_from(view, start)
                if size > _MAX_MESSAGE:
                    raise ValueError(f"a message of {size} bytes is not one of ours")
                if end - start < _FRAME.size + size:
                    break
                messages.append(_parse(view[start + _FRAME.size:start + _FRAME.size + size]))
                start += _FRAME.size + size
        if start:
            del self._pending[:start]
        return messages

    @property
    def pending(self) -> bool:
        return bool(self._pending)


def _parse(payload: bytes | memoryview) -> tuple[dict, list[bytes]]:
    (n,) = _HEADER.unpack_from(payload, 0)
    header = json.loads(bytes(payload[4:4 + n]))
    (m,) = _HEADER.unpack_from(payload, 4 + n)
    offsets = json.loads(bytes(payload[8 + n:8 + n + m]))
    base = 8 + n + m
    if not isinstance(offsets, list) or not all(isinstance(o, list) and len(o) == 2 for o in offsets):
        raise ValueError("message offsets are not pairs")
    buffers = [bytes(payload[base + start:base + start + size]) for start, size in offsets]
    if not isinstance(header, dict):
        raise ValueError("message header is not an object")
    return header, buffers


def _encode_tensor(t: torch.Tensor, buffers: list[bytes]) -> dict:
    device = getattr(t, "simulated_device", None) or t.device  # computed on the CPU for a simulated GPU or meta
    node = {"k": "tensor", "dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape),
            "device": str(device), "rg": bool(t.requires_grad), "b": None}
    if device.type != "meta":
        data = t.detach().to("cpu").contiguous()
        if data.dtype in (torch.bfloat16, torch.float16):
            raw = data.view(torch.int16).numpy().tobytes()
        elif data.is_complex() or data.dtype.is_floating_point or data.dtype in _PLAIN_INTS:
            raw = data.numpy().tobytes()
        else:
            return node | {"k": "tensor", "dtype": node["dtype"]}
        buffers.append(raw)
        node["b"] = len(buffers) - 1
    return node


def _encode_array(a: np.ndarray, buffers: list[bytes]) -> dict:
    node = {"k": "ndarray", "dtype": a.dtype.str, "shape": list(a.shape), "b": None}
    if a.dtype.kind in "biufc" and not a.dtype.hasobject:
        buffers.append(np.ascontiguousarray(a).tobytes())
        node["b"] = len(buffers) - 1
    return node


_PLAIN_INTS = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
_NUMPY_OF = {"bool": np.bool_, "uint8": np.uint8, "int8": np.int8, "int16": np.int16, "int32": np.int32,
             "int64": np.int64, "float32": np.float32, "float64": np.float64, "complex64": np.complex64,
             "complex128": np.complex128}


def _tensor_from(raw: bytes, dtype: str, shape: list[int]) -> torch.Tensor:
    # Shaped in NumPy (a third of torch's reshape's cost: the parent decodes ~1,000 tensors a check).
    if dtype in ("bfloat16", "float16"):
        ints = torch.from_numpy(np.frombuffer(raw, dtype=np.int16).reshape(shape).copy())
        return ints.view(getattr(torch, dtype))
    return torch.from_numpy(np.frombuffer(raw, dtype=_NUMPY_OF[dtype]).reshape(shape).copy())


def _py(x: Any) -> Any:
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return {"float": repr(x)}
    if isinstance(x, complex):
        return {"complex": repr(x)}
    return x


def _unpy(x: Any) -> Any:
    if isinstance(x, dict) and "float" in x:
        return float(x["float"])
    if isinstance(x, dict) and "complex" in x:
        return Opaque("complex", x["complex"])
    return x


def _safe_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # a learner's __repr__ may raise; the type name still helps
        text = f"<{type(value).__name__}>"
    return text[:200]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
