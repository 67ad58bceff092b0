"""The judge: runs a learner's file in a sealed child against the hidden reference and says what it found.

It needs no terminal and no history, and imports nothing of the app (the import-linter contracts in
pyproject.toml hold it to that). Every front end — the CLI's commands, `kata watch`, the notebook — reaches it
through this surface alone:

    check(Request(kata, path, device=…, seed=…, case=…, limits=Limits(…)))  -> results.CheckResult
    Limits, MiB             the learner's time and memory
    resolve_device(name)    "auto" -> CUDA, then MPS, else the CPU; a usage error for a device that is not here
    warm_up(kata, device)   make this process a warm checker of one kata (its later checks fork, nothing more)
    end_descendants()       SIGKILL every process this one started, and theirs (a warm checker's last act)
    static                  what a file's text alone says (unreadable, a syntax error, a banned call): no torch
    results                 the typed results a check returns: plain data, no torch

Importing this package costs nothing: `check` and the rest import torch the first time they are named.

Inside: `engine` is the parent's side (it draws the cases, computes the reference's answers and compares, with
`compare`), `runner` forks the children and reads their streams, `worker` is the child's side (sealed by `seal`,
fenced with every process it starts by `fence` (Linux's Landlock), on a simulated GPU by `devices`), `codec` the safe wire format between them, `mistakes` names a mistake, `bench`
times `--bench`. `spec` is what a kata's spec module (checker/specs/) declares and builds on.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from checker.judge.engine import Request, check, resolve_device, warm_up
    from checker.judge.runner import end_descendants
    from checker.judge.worker import Limits, MiB

_EXPORTS = {"Request": "engine", "check": "engine", "resolve_device": "engine", "warm_up": "engine",
            "end_descendants": "runner",
            "Limits": "worker", "MiB": "worker"}

__all__ = ["Limits", "MiB", "Request", "check", "end_descendants", "resolve_device", "results", "static", "warm_up"]


def __getattr__(name: str) -> Any:
    """The surface's names, imported on first use (PEP 562): `engine` and `worker` import torch."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
