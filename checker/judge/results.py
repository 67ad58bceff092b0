"""Typed results of a check. The engine returns these; renderers and `--json` only read them.

Kept free of torch so that reports can be rendered (and tested) without it: tensors appear here
as nested lists of plain numbers, already cut to a printable size.
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any


class Status(str, enum.Enum):
    PASS = "pass"  # every comparison held
    FAIL = "fail"  # the code ran and gave a wrong answer (or broke a rule)
    ERROR = "error"  # the code raised, hung, crashed, or is still a stub

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Mismatch:
    """Where two same-shaped tensors disagree, in torch.testing's terms."""

    mismatched: int
    total: int
    max_abs: float
    max_abs_index: tuple[int, ...]
    max_rel: float
    max_rel_index: tuple[int, ...]
    rtol: float
    atol: float
    first: tuple[tuple[tuple[int, ...], Any, Any], ...]  # (index, expected, got)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one item of the learner's output (or with the run itself)."""

    kind: str  # type | structure | shape | dtype | device | nonfinite | values | inplace | params | rule | raises
    item: str  # "returns", "grad of x", "input rewards"; "" for the whole output
    message: str  # one sentence in the learner's terms
    mismatch: Mismatch | None = None
    expected: Any = None  # nested lists (small tensors only) for pictures and timelines
    got: Any = None
    where: str = ""  # the line of the learner's file that did it, where kata can tell (a drill's report leaves it out:
    #                  it is the second rung of the drill's hint ladder)


@dataclass(frozen=True)
class TensorInfo:
    """An input as the report shows it: name, shape, dtype, and the values when small."""

    name: str
    shape: tuple[int, ...] | None
    dtype: str
    values: Any = None  # nested lists, or a scalar, or None when too large


@dataclass(frozen=True)
class LearnerError:
    type: str
    message: str
    traceback: str = ""  # trimmed to the learner's own frames


@dataclass(frozen=True)
class CaseResult:
    name: str
    family: str
    about: str
    status: Status
    problems: tuple[Problem, ...] = ()
    inputs: tuple[TensorInfo, ...] = ()
    error: LearnerError | None = None
    reproduce: str = ""
    mistake: str | None = None  # "This looks like: …" when a known mistake explains the output
    mistake_hint: str | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class CheckResult:
    kata: str
    title: str
    file: str
    device: str
    seed: int
    status: Status
    message: str = ""  # why the whole file failed before any case ran, or a summary
    cases: tuple[CaseResult, ...] = ()
    output: str = ""  # what the learner's code printed (tail)
    seconds: float = 0.0
    bench: dict[str, float] | None = None
    hint: str = ""  # the next thing to try, for whole-file errors
    planned: int = 0  # how many cases the run had (more than ran, when it stopped early)
    printed_in: str = ""  # the case whose printing `output` is (empty: the tail of the whole run)
    convention: str = ""  # a kata with several right conventions: the one matched, or the nearest, in words
    note: str = ""  # how the file was checked, where it is not the usual way ("checked under Triton's interpreter; …")

    @property
    def passed(self) -> bool:
        return self.status is Status.PASS

    def families(self) -> list[tuple[str, int, int]]:
        """(family, cases, passed) in the order the cases ran."""
        rows: dict[str, list[int]] = {}
        for case in self.cases:
            counts = rows.setdefault(case.family, [0, 0])
            counts[0] += 1
            counts[1] += case.status is Status.PASS
        return [(name, n, ok) for name, (n, ok) in rows.items()]

    def failures(self) -> list[CaseResult]:
        return [case for case in self.cases if case.status is not Status.PASS]

    def to_dict(self) -> dict[str, Any]:
        data = _plain(self)
        data["verdict"] = data.pop("status")
        data["passed"] = sum(case.status is Status.PASS for case in self.cases)
        data["total"] = len(self.cases)
        return data


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return str(value)  # JSON has no NaN or inf
    return value

