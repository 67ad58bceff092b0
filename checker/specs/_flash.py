"""Watch what an attention call materialises: which storages hold values computed from q and k.

FlashAttention's promise is memory, not values: the output equals softmax(q kᵀ/√D) v either way.
`Provenance` is a TorchDispatchMode that sees every aten op of the call. It tags each storage with
the inputs its values came from (q, k, v): an op's outputs, and every argument it writes (in-place
ops, writes into views, `out=`), get the union of the tags of everything the op read. Tags live on
storages, not tensors, so a view shares its base's tags and a buffer filled in place is counted at
its full size. The largest storage tagged with both q and k is what the memory rule bounds.

Storages are kept alive for the whole call, so an address freed and reused by a later tensor can
never inherit tags (for the large bench input, `keep_alive=False` drops a storage's tags when it
dies instead, and measures the peak of live memory on the way). Fused attention kernels compute
the scores inside one op, where nothing can be seen: any aten op with "attention" in its name is
recorded as such.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

QK = frozenset({"q", "k"})
_EMPTY: frozenset[str] = frozenset()


@dataclass
class Made:
    """The largest storage holding values computed from both q and k."""

    elements: int
    shape: tuple[int, ...]  # of the tensor that last wrote it
    dtype: str
    op: str  # "aten.bmm.default"
    mixes: tuple[str, ...]  # ("q", "k") or ("q", "k", "v")


@dataclass
class Watched:
    """What one call materialised."""

    largest: Made | None = None  # None: nothing mixed q and k (a fused kernel, or no attention at all)
    fused: str | None = None  # the first fused attention kernel that ran
    peak_bytes: int = 0  # the most memory held at once by tensors computed from the inputs (without keep_alive)
    ops: int = 0


class Provenance(TorchDispatchMode):
    def __init__(self, inputs: dict[str, torch.Tensor], keep_alive: bool = True):
        super().__init__()
        self.tags: dict[int, frozenset[str]] = {}  # storage key -> names of the inputs its values came from
        self.kept: dict[int, Any] = {}  # storage key -> the storage, alive until the mode is dropped
        self.keep_alive = keep_alive or not PRESERVED
        self.inputs = {_key(t) for t in inputs.values()}
        self.live = 0
        self.watched = Watched()
        for name, t in inputs.items():
            self._add(t, frozenset({name}), "input")

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        return False  # torch would wrap __torch_dispatch__ in dynamo.disable: a second of import, and per-op cost

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
        kwargs = kwargs or {}
        result = func(*args, **kwargs)
        self.watched.ops += 1
        fused, writes, view = _OPS.get(id(func)) or _op_info(func)
        if fused and self.watched.fused is None:
            self.watched.fused = str(func)
        if view:
            return result  # shares its input's storage, and with it the tags: nothing new was made
        read = _EMPTY
        tags = self.tags
        for t in _tensors(args, kwargs.values()):
            try:
                found = tags.get(t.untyped_storage()._cdata)
            except (RuntimeError, NotImplementedError):  # a tensor without a storage of its own
                continue
            if found:
                read = read | found
        if not read:
            return result  # nothing read came from an input: nothing to tag
        if isinstance(result, torch.Tensor):
            self._add(result, read, func)
        elif isinstance(result, (tuple, list)):
            for t in _tensors(result, ()):
                self._add(t, read, func)
        for i, name, kwarg_only in writes:
            for t in _tensors((args[i] if i < len(args) and not kwarg_only else kwargs.get(name),), ()):
                self._add(t, read, func)
        return result

    def _add(self, t: torch.Tensor, tags: frozenset[str], op: Any) -> None:
        try:
            storage = t.untyped_storage()
        except (RuntimeError, NotImplementedError):  # sparse, nested, or no storage to speak of
            return
        key = storage._cdata
        had = self.tags.get(key)
        if had is None:
            had = _EMPTY
            if self.keep_alive:
                self.kept[key] = storage
            else:
                self._track(storage, key)
        tags = had | tags
        self.tags[key] = tags
        if QK <= tags and key not in self.inputs:
            elements = storage.nbytes() // max(t.element_size(), 1)
            if self.watched.largest is None or elements > self.watched.largest.elements:
                self.watched.largest = Made(elements, tuple(t.shape), str(t.dtype).removeprefix("torch."), str(op),
                                            tuple(n for n in ("q", "k", "v") if n in tags))

    def _track(self, storage: Any, key: int) -> None:
        """Without keep_alive: forget a storage's tags when it dies; count live bytes meanwhile."""
        size = storage.nbytes() if key not in self.inputs else 0
        self.live += size
        self.watched.peak_bytes = max(self.watched.peak_bytes, self.live)
        weakref.finalize(storage, self._forget, key, size)

    def _forget(self, key: int, size: int) -> None:
        self.tags.pop(key, None)
        self.live -= size


def watch(fn: Any, inputs: dict[str, torch.Tensor], keep_alive: bool = True) -> tuple[Any, Watched]:
    """Call fn() under a Provenance that starts from `inputs` (name -> tensor); its result and what it made."""
    mode = Provenance(inputs, keep_alive=keep_alive)
    with mode:
        result = fn()
    watched = mode.watched
    mode.kept.clear()
    return result, watched


def bound(q: torch.Tensor, v: torch.Tensor, block_size: int) -> int:
    """B·H·Lq·max(block_size, Dv): one block of scores, or the accumulator, whichever is larger."""
    B, H, Lq, _ = q.shape
    return B * H * Lq * max(block_size, v.shape[-1])


def _storages_are_preserved() -> bool:
    """Whether a storage's Python object lives as long as the storage (torch ≥ 2.1): weak references
    to it then say when the memory is freed. Without it, keeping storages alive is the only safe way."""
    t = torch.empty(1)
    return t.untyped_storage() is t.untyped_storage()


PRESERVED = _storages_are_preserved()  # asked once, outside any mode that watches tensors being made


def _key(t: torch.Tensor) -> int:
    try:
        return t.untyped_storage()._cdata
    except (RuntimeError, NotImplementedError):
        return -1


_OPS: dict[int, tuple[bool, tuple[tuple[int, str, bool], ...], bool]] = {}
_KEEP: list[Any] = []


def _op_info(func: Any) -> tuple[bool, tuple[tuple[int, str, bool], ...], bool]:
    """Per op, cached: (is a fused attention kernel, the arguments it writes into (in-place self, out=, …),
    is a view (every output aliases an input without writing: view, transpose, slice, expand, detach, …))."""
    schema = func._schema
    writes = tuple((i, a.name, a.kwarg_only) for i, a in enumerate(schema.arguments)
                   if a.alias_info is not None and a.alias_info.is_write)
    view = bool(schema.returns) and not writes and all(r.alias_info is not None and not r.alias_info.is_write
                                                       for r in schema.returns)
    info = _OPS[id(func)] = ("attention" in str(func), writes, view)  # by id: OpOverload's own hash is Python code
    _KEEP.append(func)  # so that the id is never reused by another op
    return info


def _tensors(*groups: Any) -> list[torch.Tensor]:
    """The tensors among an op's arguments: given directly, or in a list (torch.cat's)."""
    found = []
    for values in groups:
        for value in values:
            if isinstance(value, torch.Tensor):
                found.append(value)
            elif isinstance(value, (tuple, list)):
                found += [t for t in value if isinstance(t, torch.Tensor)]
    return found
