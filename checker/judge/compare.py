"""Compare a learner's outcome with the reference's: structure first, then values.

Order follows torch.testing: type, shape, dtype, device, NaN/inf, values. Nothing is broadcast
before comparing. Each problem is one sentence in the learner's terms.
"""
from __future__ import annotations

import contextlib
import contextvars
import math
import re
from dataclasses import replace
from typing import Any, Iterator

import numpy as np
import torch

from checker.judge.codec import FloatScalar, Opaque, TensorValue
from checker.judge.promotion import MADE_AT
from checker.text.i18n import plural, tr
from checker.judge.results import Mismatch, Problem
from checker.judge.spec import Outcome, raised_problems, tolerance

SMALL = 4096  # tensors up to this many elements travel to the report in full
FIRST_MISMATCHES = 5
# A float64 item none of whose differences exceeds this share of its largest expected value is
# close at float32's level: a float32 path leaves ~1e-7 of the values (5e-7 after a 400-step
# recursion), a logic error leaves far more; a rounding to 4 decimals (np.round(x, 4)) 5e-6 of values near 10.
# See `float32_level`.
FLOAT32_LEVEL = 2e-6
GRID_DECIMALS = 8  # values all on a grid of at most this many decimals were rounded, not computed in float32

_VERDICT_ONLY = contextvars.ContextVar("kata_verdict_only", default=False)


@contextlib.contextmanager
def verdict_only() -> Iterator[None]:
    """Within it a comparison says only whether an item is wrong, and of what kind: no mismatch figures, no lists of
    values, no picture. The namer asks that of every known mistake on every case it examines, and never shows it."""
    token = _VERDICT_ONLY.set(True)
    try:
        yield
    finally:
        _VERDICT_ONLY.reset(token)


def words_wanted() -> bool:
    """False inside `verdict_only`: a spec's compare hook may then leave out what only a report reads (a picture)."""
    return not _VERDICT_ONLY.get()


def describe(value: Any) -> str:
    if isinstance(value, TensorValue):
        if value.is_numpy:
            return tr("a NumPy array of shape {shape}", shape=value.shape)
        return tr("a tensor of shape {shape}", shape=value.shape)
    if isinstance(value, Opaque):
        return tr("a {type} ({value})", type=value.type, value=value.repr[:60])
    if isinstance(value, FloatScalar):
        return tr("a NumPy {dtype} scalar ({value})", dtype=value.dtype, value=f"{value.value!r:.60}")
    if isinstance(value, tuple):
        return tr("a tuple of {n}", n=len(value))
    if isinstance(value, list):
        return tr("a list of {n}", n=len(value))
    if value is None:
        return "None"
    return tr("a {type} ({value})", type=type(value).__name__, value=f"{value!r:.60}")


def split_outputs(kata: Any, value: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Name the items of the returned value, or say why its structure is wrong."""
    names = kata.outputs
    if len(names) == 1:
        if isinstance(value, (tuple, list)):
            if kata.numpy_only:
                said = tr("returned {what}; expected a single NumPy array ({name}), not wrapped in a {wrapper}",
                          what=describe(value), name=names[0], wrapper=type(value).__name__)
            else:
                said = tr("returned {what}; expected a single tensor ({name}), not wrapped in a {wrapper}",
                          what=describe(value), name=names[0], wrapper=type(value).__name__)
            return None, [Problem("structure", "", said)]
        return {names[0]: value}, []
    wanted = tr("a tuple of {n} ({names})", n=len(names), names=", ".join(names))
    if isinstance(value, list) and len(value) == len(names):
        return None, [Problem("structure", "", tr("returned a list; expected {wanted}", wanted=wanted))]
    if not isinstance(value, tuple):
        if isinstance(value, TensorValue):
            said = tr("returned {what}; expected {wanted} — did you forget to return both?", what=describe(value),
                      wanted=wanted)
        else:
            said = tr("returned {what}; expected {wanted}", what=describe(value), wanted=wanted)
        return None, [Problem("structure", "", said)]
    if len(value) != len(names):
        return None, [Problem("structure", "", tr("returned a tuple of {n}; expected {wanted}", n=len(value), wanted=wanted))]
    return dict(zip(names, value)), []


def compare_outcome(kata: Any, spec: Any, case: Any, expected: Outcome, got: Outcome) -> list[Problem]:
    if getattr(case.inputs, "raises", None) is not None:  # a case about raising: what the call did is the answer
        return raised_problems(case, expected, got)
    want, problems = split_outputs(kata, expected.value)
    assert want is not None, f"the reference's output for {kata.id} does not fit its declaration: {problems}"
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    for name, exp in want.items():
        problems += compare_item(spec, case, name, exp, have[name])
    for name, exp in expected.extras.items():
        problems += compare_item(spec, case, name, exp, got.extras.get(name))
    made = got.extras.get(MADE_AT)
    if made and isinstance(made, (tuple, list)) and len(made) == 2:  # the line that turned float32 into float64
        where = tr("line {n} made the first float64 value: `{code}` (under NumPy 2, a float32 array combined with a "
                   "float64 array or a NumPy float64 scalar such as np.sqrt(d) is float64; a Python float keeps "
                   "float32)", n=made[0], code=str(made[1])[:120])
        problems = [replace(p, where=where) if p.kind == "dtype" else p for p in problems]
    return problems


def compare_item(spec: Any, case: Any, name: str, expected: Any, got: Any) -> list[Problem]:
    if is_float_scalar(expected):
        return compare_float_scalar(spec, case, name, expected, got)
    if isinstance(expected, TensorValue):
        rtol, atol = tolerance(spec, case, _torch_dtype(expected.dtype), name, expected.data)
        return compare_values(name, expected, got, rtol, atol)
    if expected != got and not (isinstance(expected, Opaque) and isinstance(got, Opaque) and expected.repr == got.repr):
        return [Problem("values", name, tr("{item} is {got}, expected {expected}", item=name, got=describe(got),
                                           expected=describe(expected)))]
    return []


def is_float_scalar(value: Any) -> bool:
    """A float result that is not an array: a Python float, a NumPy floating scalar, a 0-dim float array."""
    if isinstance(value, TensorValue):
        return value.is_numpy and value.shape == () and value.data is not None and value.data.is_floating_point()
    return isinstance(value, (float, FloatScalar))


def float_of(value: Any) -> float:
    if isinstance(value, TensorValue):
        return float(value.data)
    return float(value.value if isinstance(value, FloatScalar) else value)


def inputs_float_dtype(case: Any) -> torch.dtype:
    """The dtype of a case's first float tensor or array input (float64 when it has none, as int scores)."""
    for value in getattr(case.inputs, "args", {}).values():
        if isinstance(value, torch.Tensor) and value.is_floating_point():
            return value.dtype
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            return _torch_dtype(value.dtype.name)
    return torch.float64


def compare_float_scalar(spec: Any, case: Any, name: str, expected: Any, got: Any) -> list[Problem]:
    """A float result (AUC, a bias, a loss) may come back as a Python float, a NumPy floating scalar or a
    0-dim float array: all three are a float. It is compared with the tolerance of the inputs' dtype."""
    subject = name or tr("the output")
    if isinstance(got, int) and not isinstance(got, bool):
        got = float(got)  # `b = 0` returned untouched (n_iters = 0) is the number 0.0: its value is what counts
    if not is_float_scalar(got):
        return [Problem("type", name, tr("{item} is {got}; expected a float (a Python float, a NumPy floating scalar "
                                         "or a 0-dim float array)", item=subject, got=describe(got)))]
    e, g = float_of(expected), float_of(got)
    rtol, atol = tolerance(spec, case, inputs_float_dtype(case), name, torch.tensor(e, dtype=torch.float64))
    if e == g or (e != e and g != g) or (math.isfinite(e) and math.isfinite(g) and abs(g - e) <= atol + rtol * abs(e)):
        return []
    if not math.isfinite(g) and math.isfinite(e):
        said = tr("{item} is {got}, expected {expected}: an overflow, a log of 0 or a 0/0 on the way", item=subject,
                  got=repr(g), expected=f"{e:.8g}")
    else:
        said = tr("{item} is {got}, expected {expected} (off by {diff:.2g}; the tolerance is {tol:.2g})", item=subject,
                  got=f"{g:.8g}", expected=f"{e:.8g}", diff=abs(g - e) if math.isfinite(g - e) else float("inf"),
                  tol=atol + rtol * abs(e) if math.isfinite(e) else 0.0)
    return [Problem("values", name, said)]


_ITEM_FORMS = (  # extras' names ("grad of x", "out of call 3"), said in the report's language
    (re.compile(r"grad of (?P<name>.+)"), lambda m: tr("grad of {name}", name=m["name"])),
    (re.compile(r"requires_grad of (?P<name>.+)"), lambda m: tr("requires_grad of {name}", name=m["name"])),
    (re.compile(r"out of call (?P<n>\d+)"), lambda m: tr("out of call {n}", n=m["n"])),
    (re.compile(r"output of step (?P<n>\d+)"), lambda m: tr("output of step {n}", n=m["n"])),
    (re.compile(r"(?P<name>.+) of step (?P<n>\d+)"), lambda m: tr("{name} of step {n}", name=m["name"], n=m["n"])),
    (re.compile(r"(?P<name>.+) after step (?P<n>\d+)"), lambda m: tr("{name} after step {n}", name=m["name"], n=m["n"])),
    (re.compile(r"(?P<name>.+) after call (?P<n>\d+)"), lambda m: tr("{name} after call {n}", name=m["name"], n=m["n"])),
    (re.compile(r"second call"), lambda m: tr("second call")),
    (re.compile(r"third call"), lambda m: tr("third call")),
)


def item_words(item: str) -> str:
    """An item's name as a sentence of the report says it: "grad of x" is "x 的梯度" in Chinese; the output's own
    names (identifiers) stay as they are; no name is "the output"."""
    if not item:
        return tr("the output")
    for form, said in _ITEM_FORMS:
        m = form.fullmatch(item)
        if m:
            return said(m)
    return item


def compare_values(item: str, expected: TensorValue, got: Any, rtol: float, atol: float) -> list[Problem]:
    subject = item_words(item)
    if got is None and item.startswith("grad of"):
        return [Problem("values", item, tr("no gradient reached {name}: is the output cut off the graph "
                                           "(.detach(), .item(), torch.tensor(...) of a result, numpy)?", name=item[8:]))]
    if not isinstance(got, TensorValue):
        return [Problem("type", item, tr("{item} is {got}; expected {expected}", item=subject, got=describe(got),
                                         expected=describe(expected)))]
    if got.is_numpy != expected.is_numpy:
        want = tr("a NumPy array") if expected.is_numpy else tr("a torch tensor")
        return [Problem("type", item, tr("{item} is {got}; expected {expected}", item=subject, got=describe(got),
                                         expected=want))]
    if got.shape != expected.shape:
        return [Problem("shape", item, tr("{item} has shape {got}, expected {expected}{hint}", item=subject, got=got.shape,
                                          expected=expected.shape, hint=_shape_hint(expected.shape, got.shape)))]
    if got.dtype != expected.dtype:
        return [Problem("dtype", item, tr("{item} has dtype {got}, expected {expected}{hint}", item=subject, got=got.dtype,
                                          expected=expected.dtype, hint=_dtype_hint(expected.dtype, got.dtype, expected.is_numpy)))]
    if not _same_device(expected.device, got.device):
        return [Problem("device", item, tr("{item} is on {got}, expected {expected}{hint}", item=subject, got=got.device,
                                           expected=expected.device, hint=_device_hint(expected.device, got.device)))]
    if expected.data is None or got.data is None:
        return []  # meta tensors: structure is all there is
    return _compare_data(item, expected.data, got.data, rtol, atol, numpy=expected.is_numpy)


def _compare_data(item: str, exp: torch.Tensor, got: torch.Tensor, rtol: float, atol: float,
                  numpy: bool = False) -> list[Problem]:
    arrays = _float64_pair(exp, got)
    if arrays is not None and _plainly_close(*arrays, rtol, atol):
        return []
    quick = _VERDICT_ONLY.get()
    subject = item_words(item)
    small = exp.numel() <= SMALL and not quick
    pictures = dict(expected=exp.tolist() if small else None, got=got.tolist() if small else None)
    if exp.dtype == torch.bool or not exp.dtype.is_floating_point:
        bad = exp != got
        if not bad.any():
            return []
        if quick:
            return [Problem("values", item, "")]
        return [Problem("values", item, tr("{item} differs in {n} of {total} places", item=subject, n=int(bad.sum()),
                                           total=exp.numel()),
                        _mismatch(_float64(exp), _float64(got), bad.cpu().numpy(), 0.0, 0.0), **pictures)]
    # A wrong answer is judged in NumPy, in float64: it fails most of ~100 cases, and torch's small ops cost ten
    # times NumPy's (the namer judges every known mistake on each failing case too).
    e, g = arrays if arrays is not None else (_float64(exp), _float64(got))
    nonfinite = ~np.isfinite(g) & np.isfinite(e)
    if nonfinite.any() and quick:
        return [Problem("nonfinite", item, "")]
    if nonfinite.any():
        kind = "NaN" if np.isnan(g[nonfinite]).any() else "inf"
        index = tuple(int(i) for i in np.argwhere(nonfinite)[0])
        if index == ():
            message = tr("{item} is {kind} where the expected value is finite", item=subject, kind=kind)
        else:
            message = plural(int(np.count_nonzero(nonfinite)), "{item} has {n} {kind} value where the expected value is finite, at {index}",
                             "{item} has {n} {kind} values where the expected values are finite, first at {index}",
                             item=subject, kind=kind, index=index)
        return [Problem("nonfinite", item, message, _mismatch(e, g, nonfinite, rtol, atol), **pictures)]
    with np.errstate(all="ignore"):
        close = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    if close.all():
        return []
    if quick:
        return [Problem("values", item, "")]
    if exp.dtype == torch.float64 and float32_level(e, g, ~close):
        m = _mismatch(e, g, ~close, rtol, atol)
        share = f"{m.max_abs / float(np.abs(e[np.isfinite(e)]).max()):.1e}"
        if numpy:  # a NumPy kata's learner has no torch in the file: the hint names NumPy's ways to float32
            return [Problem("precision", item, tr(
                "{item} is close, but not float64-precise: every difference is at float32 rounding level (at most "
                "{share} of the values); part of your computation runs in float32 (an .astype(np.float32), or an "
                "array made with dtype=np.float32)", item=subject, share=share), m, **pictures)]
        return [Problem("precision", item, tr(
            "{item} is close, but not float64-precise: every difference is at float32 rounding level (at most "
            "{share} of the values); part of your computation runs in float32 (a .float(), or a constant such "
            "as torch.tensor(gamma) made in the default float32)", item=subject, share=share), m, **pictures)]
    return [Problem("values", item, tr("{item} differs: {n} of {total} values are out of tolerance", item=subject,
                                       n=int(np.count_nonzero(~close)), total=exp.numel()),
                    _mismatch(e, g, ~close, rtol, atol), **pictures)]


_NUMPY_FLOATS = (torch.float16, torch.float32, torch.float64)


def _float64_pair(exp: torch.Tensor, got: torch.Tensor) -> tuple[np.ndarray, np.ndarray] | None:
    """Both tensors as float64 NumPy arrays, when they are CPU floats NumPy knows (else None)."""
    if exp.dtype not in _NUMPY_FLOATS or got.dtype not in _NUMPY_FLOATS or exp.device.type != "cpu" or got.device.type != "cpu":
        return None
    return np.asarray(exp.detach().numpy(), dtype=np.float64), np.asarray(got.detach().numpy(), dtype=np.float64)


def _plainly_close(e: np.ndarray, g: np.ndarray, rtol: float, atol: float) -> bool:
    """The common case, a right answer: every expected value finite and every value within torch.isclose's bound
    (|got - exp| <= atol + rtol·|exp|, in float64; a NaN or inf in `got` is outside it). Anything else (a NaN, an
    inf, one value out) goes to the full comparison, which says what is wrong. The parent judges ~100 cases of up
    to a dozen items each: NumPy's small ops cost a microsecond, torch's ten."""
    with np.errstate(all="ignore"):
        return bool(np.isfinite(e).all() and (np.abs(g - e) <= atol + rtol * np.abs(e)).all())


def float32_level(e: np.ndarray, g: np.ndarray, bad: np.ndarray) -> bool:
    """Whether a float64 item's mismatches look like float32 rounding rather than a logic error:
    every difference is within FLOAT32_LEVEL of the item's largest expected value, and they are
    not one common factor (g = c * e to float64 precision is a wrong epsilon or std, not rounding)."""
    finite = np.isfinite(e)
    if not bad.any() or not bool((np.isfinite(g) == finite).all()) or not bool((e[~finite] == g[~finite]).all()):
        return False
    e, g = e[finite], g[finite]
    with np.errstate(all="ignore"):
        scale = float(np.abs(e).max()) if e.size else 0.0
        if scale == 0.0 or float(np.abs(g - e).max()) > FLOAT32_LEVEL * scale:
            return False
        if _rounded(g[bad[finite]], e[bad[finite]]):
            return False  # np.round(x, 4), round(): a rounding of the learner's, not float32's
        if e.size >= 2:
            factor = float((g * e).sum() / (e * e).sum())
            if float(np.abs(g - factor * e).max()) <= 1e-12 * scale:
                return False  # one common factor: a constant in the formula, not rounding noise
    return True


def _rounded(g: np.ndarray, e: np.ndarray) -> bool:
    """Whether the values `g` all lie on a grid of d ≤ GRID_DECIMALS decimals that the expected `e` do not: a float32
    result (24 bits of mantissa) is almost never on one, a np.round(x, d) always is."""
    for d in range(GRID_DECIMALS + 1):
        if bool((np.round(g, d) == g).all()):
            return not bool((np.round(e, d) == e).all())
    return False


def _mismatch(e: np.ndarray, g: np.ndarray, bad: np.ndarray, rtol: float, atol: float) -> Mismatch:
    """Where float64 arrays `e` and `g` disagree (`bad`): the largest differences and the first places."""
    with np.errstate(all="ignore"):
        diff = np.abs(g - e)
        diff = np.where(np.isnan(diff), np.inf, diff)  # a NaN is the largest difference, not the smallest
        rel = np.asarray(diff / np.maximum(np.abs(e), 1e-30))
    abs_at = int(diff.argmax()) if diff.size else 0
    rel_at = int(rel.argmax()) if rel.size else 0
    first = tuple((tuple(int(i) for i in ix), e[tuple(ix)].item(), g[tuple(ix)].item())
                  for ix in np.argwhere(bad)[:FIRST_MISMATCHES])
    shape = tuple(e.shape)
    return Mismatch(
        mismatched=int(np.count_nonzero(bad)), total=int(e.size),
        max_abs=float(diff.flat[abs_at]) if diff.size else 0.0, max_abs_index=_unravel(abs_at, shape),
        max_rel=float(rel.flat[rel_at]) if rel.size else 0.0, max_rel_index=_unravel(rel_at, shape),
        rtol=rtol, atol=atol, first=first,
    )


def _float64(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().to(torch.float64).numpy()


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
        return tr(" — an extra dim of size 1: squeeze it, or reduce without keepdim")
    if len(got) + 1 == len(expected) and expected[-1] == 1:
        return tr(" — keep the reduced dim (keepdim=True)")
    if sorted(got) == sorted(expected):
        return tr(" — the right sizes in the wrong order: a transpose or permute is missing or extra")
    if len(got) < len(expected):
        return tr(" — a dim is missing: did you reduce over too many dims, or drop the batch/head dims?")
    return ""


def _dtype_hint(expected: str, got: str, numpy: bool = False) -> str:
    if numpy and got == "float64" and expected in ("float32", "float16"):
        return tr(" — a float64 array crept in: np.zeros(n), np.ones(n) and np.array of Python floats are float64 unless "
                  "given dtype=X.dtype, and int or bool arrays (labels) in the arithmetic promote float32 to float64 "
                  "(cast them with .astype(X.dtype))")
    if numpy and got.startswith("float") and expected.startswith("float"):
        return tr(" — outputs keep the inputs' dtype: create arrays with dtype=X.dtype, or end with .astype(X.dtype)")
    if expected == "bool":
        return tr(" — build the mask from comparisons or torch.ones(..., dtype=torch.bool)")
    if got == "float64" and expected in ("float32", "float16", "bfloat16"):
        return tr(" — a float64 constant or tensor crept in (torch.tensor of Python floats, NumPy); keep the inputs' dtype")
    if got == "float32" and expected == "float64":
        return tr(" — the result stayed float32: a .float() never cast back, or a tensor created with the default "
                  "dtype; end with .to(x.dtype), or use zeros_like / dtype=x.dtype")
    if got == "float32" and expected in ("float16", "bfloat16"):
        return tr(" — the result stayed float32: computing in float32 is right, but cast the result back with "
                  ".to(x.dtype)")
    if got.startswith("int") or got == "bool":
        return tr(" — the result went through integer or boolean tensors: convert with .to(x.dtype)")
    return tr(" — outputs keep the inputs' dtype")


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
