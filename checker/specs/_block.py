"""What the Transformer-block katas (`llama-block`, `gpt2-block`) share: the Outcome keys of the module-as-built
findings and of the causality case, the causality probe (later tokens changed, earlier outputs must not move), and
the comparison that reports each finding, then causality, then the usual values and gradients.

Each kata keeps what is its own: its parameters' contract (`fresh_findings` / `fresh_problem`) and the sentence that
says its block is not causal (a learner's "layer" or "block"), which it hands in as `say`.
"""
from __future__ import annotations

import contextlib
import sys
from typing import Callable, Iterator

import numpy as np
import torch
import torch.nn as nn

from checker.judge.compare import compare_outcome
from checker.judge.results import Problem
from checker.judge.spec import Outcome

FRESH = "fresh module"  # Outcome.extras key: what the checks of the module as built found
NAMES = "fresh module names"  # Outcome.extras key: the names behind a finding, for the report only (a dict, which
#                               the namer does not match: a file with q/k/v biases and one with seven slip alike)
EARLIER = "earlier positions"  # Outcome.extras key of the causality case: how far each earlier position moved
CAUSAL_AT = "later tokens changed from position"  # Inputs.show key of the causality case


def changed_later(x: torch.Tensor, at: int) -> torch.Tensor:
    """x with every token from position `at` on replaced (deterministically): earlier outputs must not move."""
    x2 = x.clone()
    x2[:, at:] = 0.3 - 1.7 * x[:, at:].flip(-1)
    return x2


def earlier_moves(module: torch.nn.Module, x: torch.Tensor, y: torch.Tensor, at: int) -> torch.Tensor | None:
    """(at,): how far each position before `at` moved when only later tokens changed (None: no comparable output).
    Runs without gradients; x is the case's input, y the module's output on it."""
    with torch.no_grad():
        moved = module(changed_later(x, at))
    if not isinstance(moved, torch.Tensor) or moved.shape != y.shape:
        return None
    diff = (moved[:, :at] - y.detach()[:, :at]).abs().double()  # (B, at, C)
    return diff.amax(dim=(0, 2)).to(x.dtype)  # (at,): the largest move at each earlier position


def compare(kata, case, expected: list[Outcome], got: Outcome, fresh_problem: Callable[[str, str, dict], Problem],
            say: Callable[..., str], atol: float) -> list[Problem] | None:
    """Each finding about the module as built is its own problem; the causality case says which earlier position
    moved (by more than atol × max(1, max|y|)); then the usual comparison."""
    if case.inputs.raises is not None:
        return None
    spec = sys.modules[kata.spec_module]
    found, names = got.extras.get(FRESH) or (), got.extras.get(NAMES) or {}
    problems = [fresh_problem(code, names.get(code, detail), case.inputs.init) for code, detail in found]
    if got.value is None and found:
        return problems  # the module could not take the case's parameters: nothing else to compare
    if EARLIER in expected[0].extras:
        problems += _causality(case, expected[0], got, say, atol)
    strip = lambda o: Outcome(o.value, {k: v for k, v in o.extras.items() if k not in (FRESH, NAMES, EARLIER)}, o.args)  # noqa: E731
    return problems + compare_outcome(kata, spec, case, strip(expected[0]), strip(got))


def _causality(case, expected: Outcome, got: Outcome, say: Callable[..., str], atol: float) -> list[Problem]:
    moved = got.extras.get(EARLIER)
    if moved is None or getattr(moved, "data", None) is None:
        return []  # a wrong output: the usual comparison says what
    y = expected.value.data.double()
    at = case.inputs.show[CAUSAL_AT]
    limit = atol * max(1.0, float(y.abs().max()))
    moves = moved.data.double()
    changed = [i for i in range(min(at, moves.numel())) if not bool(moves[i] <= limit)]
    if not changed:
        return []
    i = changed[0]
    return [Problem("rule", EARLIER, say(i=i, at=at, last=case.inputs.args["x"].shape[1] - 1, by=f"{float(moves[i]):.3g}"))]


def scaled_tolerance(tolerances: dict):
    """The module katas' rule for every output, cache and gradient: the dtype's rtol, and its atol × max(1,
    max|expected|) — a spec's `tolerance_for`, given its own table (llama-block, gpt2-block, mla, moe-layer)."""
    def tolerance_for(case, item: str, dtype: torch.dtype, expected: torch.Tensor | None):
        if expected is None or dtype not in tolerances or not expected.numel() or not expected.is_floating_point():
            return None
        rtol, atol = tolerances[dtype]
        # in NumPy where it can be: an item costs a microsecond there, ten in torch (a check has ~550 items)
        peak = np.abs(expected.detach().numpy()).max() if expected.device.type == "cpu" else expected.abs().max()
        return rtol, atol * max(1.0, float(peak))
    return tolerance_for


@contextlib.contextmanager
def linear_init_skipped() -> Iterator[None]:
    """nn.Linear's own init (kaiming_uniform_ on every weight: ~30% of building a layer; a moe-layer case builds
    3E + 1 of them, an mla case five or six) left out while the module is built, the reference's and the learner's
    alike. Every case then loads every parameter by name, so the values an init draws are never compared; what the
    fresh-module check reads (names, shapes, buffers, shared tensors, a norm's ones) is as built, and an init the
    module writes itself still runs."""
    saved = nn.Linear.reset_parameters
    nn.Linear.reset_parameters = _no_init
    try:
        yield
    finally:
        nn.Linear.reset_parameters = saved


def _no_init(self: nn.Linear) -> None:
    pass
