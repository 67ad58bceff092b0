"""Pictures that locate a bug: picked per kata and problem. Returns None when no picture helps."""
from __future__ import annotations

from typing import Any

from rich.console import RenderableType

from checker.results import CaseResult, Problem


def figure_for(kata: str, case: CaseResult, problem: Problem) -> RenderableType | None:
    return None
