"""Compare a learner's outcome with the reference's: structure first, then values.

Order follows torch.testing: type, shape, dtype, device, NaN/inf, values. Nothing is broadcast
before comparing. Each problem is one sentence in the learner's terms.
"""
from __future__ import annotations

from typing import Any

import torch

from checker.codec import Opaque, TensorValue
from checker.i18n import tr
from checker.results import Mismatch, Problem
from checker.spec import Outcome, tolerance

SMALL = 4096  # tensors up to this many elements travel to the report in full
FIRST_MISMATCHES = 5
# A float64 item none of whose differences exceeds this share of its largest expected value is
# close at float32's level: a float32 path leaves ~1e-7 of the values (5e-7 after a 400-step
# recursion), a logic error leaves far more. See `float32_level`.
FLOAT32_LEVEL = 1e-5


def describe(value: Any) -> str:
    if isinstance(value, TensorValue):
        kind = "a NumPy array" if value.is_numpy else "a tensor"
        return f"{kind} of shape {value.shape}"
    if isinstance(value, Opaque):
        return f"a {value.type} ({value.repr[:60]})"
    if isinstance(value, tuple):
        return f"a tuple of {len(value)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if value is None:
        return "None"
    return f"a {type(value).__name__} ({value!r:.60})"


def split_outputs(kata: Any, value: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Name the items of the returned value, or say why its structure is wrong."""
    names = kata.outputs
    if len(names) == 1:
        if isinstance(value, (tuple, list)):
            return None, [Problem("structure", "", f"returned {describe(value)}; expected a single {_noun(kata)} "
                                                    f"({names[0]}), not wrapped in a {type(value).__name__}")]
        return {names[0]: value}, []
    wanted = f"a tuple of {len(names)} ({', '.join(names)})"
    if isinstance(value, list) and len(value) == len(names):
        return None, [Problem("structure", "", f"returned a list; expected {wanted}")]
    if not isinstance(value, tuple):
        extra = " — did you forget to return both?" if isinstance(value, TensorValue) else ""
        return None, [Problem("structure", "", f"returned {describe(value)}; expected {wanted}{extra}")]
    if len(value) != len(names):
        return None, [Problem("structure", "", f"returned a tuple of {len(value)}; expected {wanted}")]
    return dict(zip(names, value)), []


def _noun(kata: Any) -> str:
    return "NumPy array" if kata.numpy_only else "tensor"


def compare_outcome(kata: Any, spec: Any, case: Any, expected: Outcome, got: Outcome) -> list[Problem]:
    want, problems = split_outputs(kata, expected.value)
    assert want is not None, f"the reference's output for {kata.id} does not fit its declaration: {problems}"
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    for name, exp in want.items():
        problems += compare_item(spec, case, name, exp, have[name])
    for name, exp in expected.extras.items():
        problems += compare_item(spec, case, name, exp, got.extras.get(name))
    return problems


def compare_item(spec: Any, case: Any, name: str, expected: Any, got: Any) -> list[Problem]:
    if isinstance(expected, TensorValue):
        rtol, atol = tolerance(spec, case, _torch_dtype(expected.dtype), name, expected.data)
        return compare_values(name, expected, got, rtol, atol)
    if expected != got and not (isinstance(expected, Opaque) and isinstance(got, Opaque) and expected.repr == got.repr):
        return [Problem("values", name, f"{name} is {describe(got)}, expected {describe(expected)}")]
    return []


def compare_values(item: str, expected: TensorValue, got: Any, rtol: float, atol: float) -> list[Problem]:
    where = f"{item} " if item else ""
    if got is None and item.startswith("grad of"):
        return [Problem("values", item, f"no gradient reached {item[8:]}: is the output cut off the graph "
                                        "(.detach(), .item(), torch.tensor(...) of a result, numpy)?")]
    if not isinstance(got, TensorValue):
        return [Problem("type", item, f"{where}is {describe(got)}; expected {describe(expected)}")]
    if got.is_numpy != expected.is_numpy:
        want = "a NumPy array" if expected.is_numpy else "a torch tensor"
        return [Problem("type", item, f"{where}is {describe(got)}; expected {want}")]
    if got.shape != expected.shape:
        return [Problem("shape", item, f"{where}has shape {got.shape}, expected {expected.shape}{_shape_hint(expected.shape, got.shape)}")]
    if got.dtype != expected.dtype:
        return [Problem("dtype", item, f"{where}has dtype {got.dtype}, expected {expected.dtype}{_dtype_hint(expected.dtype, got.dtype)}")]
    if not _same_device(expected.device, got.device):
        return [Problem("device", item, f"{where}is on {got.device}, expected {expected.device}{_device_hint(expected.device, got.device)}")]
    if expected.data is None or got.data is None:
        return []  # meta tensors: structure is all there is
    return _compare_data(item, expected.data, got.data, rtol, atol)


def _compare_data(item: str, exp: torch.Tensor, got: torch.Tensor, rtol: float, atol: float) -> list[Problem]:
    where = f"{item} " if item else ""
    small = exp.numel() <= SMALL
    pictures = dict(expected=exp.tolist() if small else None, got=got.tolist() if small else None)
    if exp.dtype == torch.bool or not exp.dtype.is_floating_point:
        bad = exp != got
        if not bad.any():
            return []
        return [Problem("values", item, f"{where}differs in {int(bad.sum())} of {exp.numel()} places",
                        _mismatch(exp, got, bad, 0.0, 0.0), **pictures)]
    e, g = exp.double(), got.double()
    nonfinite = ~torch.isfinite(g) & torch.isfinite(e)
    if nonfinite.any():
        kind = "NaN" if torch.isnan(g[nonfinite]).any() else "inf"
        index = _index(nonfinite.nonzero()[0])
        return [Problem("nonfinite", item, f"{where}has {int(nonfinite.sum())} {kind} value(s) where the expected values "
                                           f"are finite, first at {index}", _mismatch(e, g, nonfinite, rtol, atol), **pictures)]
    close = torch.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    if close.all():
        return []
    if exp.dtype == torch.float64 and float32_level(e, g, ~close):
        m = _mismatch(e, g, ~close, rtol, atol)
        return [Problem("precision", item, tr(
            "{item} is close, but not float64-precise: every difference is at float32 rounding level (at most "
            "{share} of the values); part of your computation runs in float32 (a .float(), or a constant such "
            "as torch.tensor(gamma) made in the default float32)", item=item or "the output",
            share=f"{m.max_abs / float(e[torch.isfinite(e)].abs().max()):.1e}"), m, **pictures)]
    return [Problem("values", item, f"{where}differs: {int((~close).sum())} of {exp.numel()} values are out of tolerance",
                    _mismatch(e, g, ~close, rtol, atol), **pictures)]


def float32_level(e: torch.Tensor, g: torch.Tensor, bad: torch.Tensor) -> bool:
    """Whether a float64 item's mismatches look like float32 rounding rather than a logic error:
    every difference is within FLOAT32_LEVEL of the item's largest expected value, and they are
    not one common factor (g = c * e to float64 precision is a wrong epsilon or std, not rounding)."""
    finite = torch.isfinite(e)
    if not bad.any() or not bool((torch.isfinite(g) == finite).all()) or not bool((e[~finite] == g[~finite]).all()):
        return False
    e, g = e[finite], g[finite]
    scale = float(e.abs().max()) if e.numel() else 0.0
    if scale == 0.0 or float((g - e).abs().max()) > FLOAT32_LEVEL * scale:
        return False
    if e.numel() >= 2:
        factor = float((g * e).sum() / (e * e).sum())
        if float((g - factor * e).abs().max()) <= 1e-12 * scale:
            return False  # one common factor: a constant in the formula, not rounding noise
    return True


def _mismatch(e: torch.Tensor, g: torch.Tensor, bad: torch.Tensor, rtol: float, atol: float) -> Mismatch:
    e, g = e.double(), g.double()
    diff = (g - e).abs().nan_to_num(nan=float("inf"))
    rel = diff / e.abs().clamp_min(1e-30)
    abs_at = int(diff.flatten().argmax()) if diff.numel() else 0
    rel_at = int(rel.flatten().argmax()) if rel.numel() else 0
    first = tuple((_index(ix), _scalar(e[tuple(ix)]), _scalar(g[tuple(ix)])) for ix in bad.nonzero()[:FIRST_MISMATCHES])
    shape = tuple(e.shape)
    return Mismatch(
        mismatched=int(bad.sum()), total=e.numel(),
        max_abs=float(diff.flatten()[abs_at]) if diff.numel() else 0.0, max_abs_index=_unravel(abs_at, shape),
        max_rel=float(rel.flatten()[rel_at]) if rel.numel() else 0.0, max_rel_index=_unravel(rel_at, shape),
        rtol=rtol, atol=atol, first=first,
    )


def _scalar(t: torch.Tensor) -> Any:
    value = t.item()
    return bool(value) if isinstance(value, bool) else value


def _index(ix: torch.Tensor) -> tuple[int, ...]:
    return tuple(int(i) for i in ix)


def _unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    index = []
    for size in reversed(shape):
        index.append(flat % size if size else 0)
        flat = flat // size if size else 0
    return tuple(reversed(index))


def _same_device(expected: str, got: str) -> bool:
    return expected.split(":")[0] == got.split(":")[0]


def _shape_hint(expected: tuple, got: tuple) -> str:
    if len(got) == len(expected) + 1 and got[-1] == 1:
        return " — an extra dim of size 1: squeeze it, or reduce without keepdim"
    if len(got) + 1 == len(expected) and expected[-1] == 1:
        return " — keep the reduced dim (keepdim=True)"
    if sorted(got) == sorted(expected):
        return " — the right sizes in the wrong order: a transpose or permute is missing or extra"
    if len(got) < len(expected):
        return " — a dim is missing: did you reduce over too many dims, or drop the batch/head dims?"
    return ""


def _dtype_hint(expected: str, got: str) -> str:
    if expected == "bool":
        return " — build the mask from comparisons or torch.ones(..., dtype=torch.bool)"
    if got == "float64" and expected in ("float32", "float16", "bfloat16"):
        return " — a float64 constant or tensor crept in (torch.tensor of Python floats, NumPy); keep the inputs' dtype"
    if got == "float32" and expected == "float64":
        return " — a tensor was created with the default dtype: use zeros_like or dtype=x.dtype"
    if got.startswith("int") or got == "bool":
        return " — the result went through integer or boolean tensors: convert with .to(x.dtype)"
    return " — outputs keep the inputs' dtype"


def _device_hint(expected: str, got: str) -> str:
    if got.startswith("cpu") and not expected.startswith("cpu"):
        return tr(" — it was made on the CPU: torch.zeros, torch.arange, torch.tensor... without device= ignore the device "
                  "asked for. Pass device= (the device argument, or x.device), use torch.zeros_like(x) or x.new_zeros(...), "
                  "or move it with .to(x.device)")
    if expected.startswith("cpu"):
        return tr(" — keep the result where the inputs are")
    return tr(" — keep every tensor on the device asked for")


def _torch_dtype(name: str) -> torch.dtype:
    return getattr(torch, name, torch.float32)
