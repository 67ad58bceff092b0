"""Shared makers and hooks for the training katas (cross-entropy, top-p, dpo-loss): draws made in
float64 and rounded once, half-precision answers from a float32 reference, gradient tolerances that
follow the size of what is compared, and `requires_grad` as a compared item.
"""
from __future__ import annotations

import contextlib
import sys
from dataclasses import replace
from typing import Any, Callable, Iterator

import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Outcome

HALF = (torch.float16, torch.bfloat16)


def randn(g: torch.Generator, *shape: int, dtype: torch.dtype = torch.float32, scale: float = 1.0) -> torch.Tensor:
    """Normal values drawn in float64 and cast, so every dtype sees the same numbers."""
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)


def randint(g: torch.Generator, low: int, high: int) -> int:
    """An int in [low, high]."""
    return int(torch.randint(low, high + 1, (1,), generator=g))


def pick(g: torch.Generator, choices: list) -> Any:
    return choices[randint(g, 0, len(choices) - 1)]


def uniform(g: torch.Generator, low: float, high: float) -> float:
    return low + (high - low) * float(torch.rand((), generator=g, dtype=torch.float64))


# ---------------------------------------------------------------- the parent's own torch calls


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Run torch on one thread: the parent draws cases and compares small tensors, where waking a
    thread pool costs far more than the work (tens of ms per op on a busy machine)."""
    before = torch.get_num_threads()
    if before == 1:
        yield
        return
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def single_threaded(families: tuple[Family, ...]) -> tuple[Family, ...]:
    """The same families, each drawing its inputs under `one_thread()`."""
    def wrap(make: Callable[[torch.Generator], Inputs]) -> Callable[[torch.Generator], Inputs]:
        def draw(g: torch.Generator) -> Inputs:
            with one_thread():
                return make(g)
        return draw
    return tuple(replace(f, make=wrap(f.make)) for f in families)


# ---------------------------------------------------------------- low precision


def expected_in_float32(run: Callable[[Inputs], Outcome], inputs: Inputs) -> Outcome:
    """float16 / bfloat16 cases: the reference computes in float32 on the same (already rounded)
    numbers and its answer is rounded once to the case's dtype (forward only)."""
    dtype = next(v.dtype for v in inputs.args.values() if isinstance(v, torch.Tensor) and v.is_floating_point())
    if dtype not in HALF:
        return run(inputs)
    assert not inputs.grad_of, "low-precision cases compare the forward only"
    up = lambda t: t.float() if isinstance(t, torch.Tensor) and t.is_floating_point() else t  # noqa: E731
    outcome = run(replace(inputs, args={k: up(v) for k, v in inputs.args.items()}))
    down = lambda t: t.detach().to(dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t  # noqa: E731
    value = tuple(down(t) for t in outcome.value) if isinstance(outcome.value, tuple) else down(outcome.value)
    return Outcome(value, outcome.extras, outcome.args)


def expected(kata: Any, entry: Any, inputs: Inputs, device: torch.device) -> list[Outcome]:
    """The `expected` hook of the training katas: the spec's own call, half cases in float32."""
    call = getattr(sys.modules[kata.spec_module], "call", spec_api.call)
    return [expected_in_float32(lambda i: call(kata, entry, i, device), inputs)]


# ---------------------------------------------------------------- tolerances


def gradient_tolerance(spec: Any, dtype: torch.dtype, unit: float, spread: float = 0.0) -> tuple[float, float]:
    """(rtol, atol) for a gradient whose entries are at most `unit` (cross-entropy: 1/n, DPO: beta/B)
    times a probability: the table's rtol, and an atol of a few roundings of such a probability,
    widened by `spread`, the size of the numbers subtracted on the way (a float32 logit of 1e4
    carries an absolute error of 1e-3 into every probability computed from it)."""
    rtol, _ = {**spec_api.TOLERANCES, **getattr(spec, "TOLERANCES", {})}.get(dtype, (0.0, 0.0))
    return rtol, 8 * torch.finfo(dtype).eps * (1.0 + spread) * unit


# ---------------------------------------------------------------- requires_grad as an item

REQUIRES_GRAD = " requires_grad"  # the suffix of an extra that records an output's requires_grad


def record_requires_grad(outcome: Outcome, names: tuple[str, ...], items: tuple[str, ...]) -> Outcome:
    """Add `<item> requires_grad` extras (a bool each) for the named output items, so the generic
    comparison, and the naming of known mistakes, both see an attached or detached output."""
    value = outcome.value if isinstance(outcome.value, tuple) else (outcome.value,)
    if len(value) != len(names):
        return outcome  # the structure check reports it
    for name, item in zip(names, value):
        if name in items and isinstance(item, torch.Tensor):
            outcome.extras[name + REQUIRES_GRAD] = bool(item.requires_grad)
    return outcome


def is_requires_grad_item(item: str) -> bool:
    return item.endswith(REQUIRES_GRAD)

