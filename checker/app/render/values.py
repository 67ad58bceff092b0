"""Plain nested lists and numbers, as results carry them: shapes, indexing, tolerance checks and
number formatting shared by every picture. The floor the renderers stand on: imports nothing of theirs.
"""
from __future__ import annotations

import math
from typing import Any, Iterator

from checker.judge.results import CaseResult, Problem, TensorInfo

PICTURED = ("values", "nonfinite", "precision")
RL_INPUTS = ("rewards", "dones", "values")


def pictured(problem: Problem) -> bool:
    return problem.kind in PICTURED and problem.expected is not None and problem.got is not None


# ---------------------------------------------------------------- plain nested lists


def size(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n if shape else 0


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def shape_of(value: Any) -> tuple[int, ...]:
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        if not value:
            break
        value = value[0]
    return tuple(shape)


def flat(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for v in value:
            yield from flat(v)
    else:
        yield value


def at(value: Any, index: tuple[int, ...]) -> Any:
    for i in index:
        value = value[i]
    return value


def indices(shape: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every index of `shape` in row-major order."""
    if not shape:
        yield ()
        return
    for i in range(shape[0]):
        for rest in indices(shape[1:]):
            yield (i, *rest)


def broadcast_at(value: Any, index: tuple[int, ...]) -> Any:
    """value[index] where `value` broadcasts to the shape `index` indexes (torch's rules)."""
    shape = shape_of(value)
    tail = index[len(index) - len(shape):] if shape else ()
    return at(value, tuple(0 if n == 1 else i for n, i in zip(shape, tail)))


def broadcastable(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    if len(small) > len(big):
        return False
    return all(s in (1, b) for s, b in zip(reversed(small), reversed(big)))


def differs(expected: Any, got: Any, rtol: float, atol: float) -> bool:
    """torch.isclose's rule with equal_nan, on plain numbers (bools compare exactly)."""
    if isinstance(expected, bool) or isinstance(got, bool) or not (is_number(expected) and is_number(got)):
        return expected != got
    e, g = float(expected), float(got)
    if math.isnan(e) or math.isnan(g):
        return math.isnan(e) != math.isnan(g)
    if math.isinf(e) or math.isinf(g):
        return e != g
    return abs(g - e) > atol + rtol * abs(e)


def tolerances(problem: Problem) -> tuple[float, float]:
    m = problem.mismatch
    return (m.rtol, m.atol) if m is not None else (0.0, 0.0)


def truthy(value: Any) -> bool:
    return bool(value) and not (isinstance(value, float) and math.isnan(value))


def num(value: Any, decimals: int = 3) -> str:
    """A number short enough for a table cell: fixed decimals, scientific when huge or tiny."""
    if isinstance(value, bool):
        return "T" if value else "F"
    if not is_number(value):
        return str(value)
    if isinstance(value, int):  # an integer argument or an integer tensor's value: -100, not -100.0000
        return str(value)
    v = float(value)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v != 0 and (abs(v) >= 10 ** (7 - decimals) or abs(v) < 10 ** -decimals):
        return f"{v:.{max(decimals - 1, 1)}e}"
    text = f"{v:.{decimals}f}"
    return "0" if float(text) == 0 else text


def nums(expected: Any, got: Any, decimals: int = 3) -> tuple[str, str]:
    """An expected value and yours as `num` prints them, with as many more digits as it takes to
    see that they differ (-0.70711 / -0.70710, never -0.707 twice), both in the same style so that
    their digits line up."""
    a, b = num(expected, decimals), num(got, decimals)
    if a != b or not (is_number(expected) and is_number(got)) or isinstance(expected, bool) or isinstance(got, bool):
        return a, b
    x, y = float(expected), float(got)
    if x == y or not (math.isfinite(x) and math.isfinite(y)):
        return a, b
    scientific = "e" in a or "e" in b
    for digits in range(decimals + 1, decimals + 18):
        a, b = (f"{x:.{digits - 1}e}", f"{y:.{digits - 1}e}") if scientific else (f"{x:.{digits}f}", f"{y:.{digits}f}")
        if a != b:
            return a, b
    return repr(x), repr(y)


def align_points(cells: list[str], width: int = 0) -> list[str]:
    """Cells of one column, padded to one width so that their decimal points line up even when some
    carry more digits than the others (print them left-justified: a terminal table drops trailing
    spaces of right-justified cells). `width` is the least width, e.g. the column's header."""
    parts = [(c[:c.index(".")], c[c.index("."):]) if "." in c else (c, "") for c in cells]
    whole = max((len(w) for w, _ in parts), default=0)
    fraction = max((len(f) for _, f in parts), default=0)
    return [(w.rjust(whole) + f.ljust(fraction)).rjust(width) for w, f in parts]


def input_info(case: CaseResult, name: str) -> TensorInfo | None:
    return next((info for info in case.inputs if info.name == name), None)


def tensor_inputs(case: CaseResult) -> list[TensorInfo]:
    return [info for info in case.inputs if info.shape is not None and info.values is not None]


def scalar_inputs(case: CaseResult) -> list[TensorInfo]:
    return [info for info in case.inputs if info.shape is None and is_number(info.values)]


def index_text(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"
