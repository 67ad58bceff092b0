"""Which line of the learner's file turned a float32 NumPy result into float64.

Under NumPy 2 (NEP 50) a float32 array combined with a NumPy float64 scalar (`np.sqrt(d)`, `np.float64(…)`,
`np.finfo(np.float64).min`) or with a float64 array (`np.zeros(n)`, `np.array([...])` of Python floats, `np.ones`)
is float64; a Python float is weak and keeps float32. The check sees only the result's dtype; this runs the entry
point once more, under a line tracer limited to the learner's file, and names the first line after which one of its
frames holds a float64 value it did not hold before: the line that made it. Only for a case that has already failed
that way (a float32 input, a float64 output), so a passing check never pays for it.
"""
from __future__ import annotations

import copy
import linecache
import sys
from typing import Any, Callable

import numpy as np

MADE_AT = "made float64 at"  # Outcome.extras key of a learner's run (never compared): (line, its code)


def widened(args: dict[str, Any], value: Any) -> bool:
    """Whether a float32 array went in and a float64 array or scalar came out."""
    return (any(isinstance(a, np.ndarray) and a.dtype == np.float32 for a in args.values())
            and _has_float64(value))


def _has_float64(value: Any) -> bool:
    if isinstance(value, (tuple, list)):
        return any(_has_float64(v) for v in value)
    if isinstance(value, dict):
        return any(_has_float64(v) for v in value.values())
    return isinstance(value, (np.ndarray, np.floating)) and value.dtype == np.float64


def first_float64_line(entry: Callable[..., Any], args: dict[str, Any]) -> tuple[int, str] | None:
    """(line number, its code) of the first line of the entry's file after which one of its frames holds a float64
    value (an array or a NumPy scalar) that it did not hold before; None if the run leaves no trace of one."""
    while hasattr(entry, "__wrapped__"):  # the child times a function kata's large calls (worker.timed)
        entry = entry.__wrapped__
    code = getattr(entry, "__code__", None)
    if code is None:
        return None
    filename = code.co_filename
    previous: dict[Any, int] = {}
    seen: dict[Any, set[str]] = {}
    found: list[tuple[int, str]] = []

    def float64_names(frame: Any) -> set[str]:
        return {name for name, v in frame.f_locals.items()
                if isinstance(v, (np.ndarray, np.floating)) and v.dtype == np.float64}

    def local(frame: Any, event: str, arg: Any) -> Any:
        if found:
            return None
        names = float64_names(frame)
        if names - seen.get(frame, set()) and frame in previous:  # made by the line that just ran
            line = previous[frame]
            found.append((line, linecache.getline(filename, line).strip()))
            return None
        seen[frame] = names
        if event == "line":
            previous[frame] = frame.f_lineno
        return local

    def calls(frame: Any, event: str, arg: Any) -> Any:
        return local if event == "call" and frame.f_code.co_filename == filename and not found else None

    before = sys.gettrace()
    sys.settrace(calls)
    try:
        entry(**copy.deepcopy(args))
    except Exception:  # noqa: BLE001 — it ran once already; this run only looks for the line
        pass
    finally:
        sys.settrace(before)
    return found[0] if found else None
