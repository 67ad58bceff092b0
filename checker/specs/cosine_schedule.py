"""Case families for `cosine-schedule`: linear warmup from 0, half-cosine decay to min_lr, min_lr held after.

A case is one schedule (max_lr, warmup_steps W, total_steps T, min_lr) and the steps it is read at: every step from 0
to T + 10 or further, and for long schedules the boundaries ±1 with steps sampled up to 2.5 × T. The call hook calls
the learner's function once per step (by keyword, or by position with the default min_lr) and records each value as
"lr at step s". Each value must be a Python float (an int 0 or a NumPy float64 passes; a tensor, an array or a NumPy
float32 fails: it is what goes into `param_group["lr"]`) within 1e-12·max_lr + 1e-9·|lr| of the contract's value;
at step = W = T either max_lr (transformers' guard) or min_lr (a floor branch first) is accepted. The tolerance is a
precision requirement: float32 arithmetic (~1e-7 off) fails, and every named mistake is at least 1e-5 off.
A report lists the first steps that differ, by phase (warmup, decay, after total).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from checker.judge.codec import FloatScalar, TensorValue
from checker.judge.compare import describe
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._training import pick, randint
from checker.text.i18n import tr

STEPS = "steps"  # Inputs.show key: the steps the case reads
POSITIONAL = "positional"  # Inputs.show key: call as (step, max_lr, warmup_steps, total_steps), min_lr left out
SHOWN = 4  # differing steps a report lists
RTOL, ATOL = 1e-9, 1e-12  # |got - want| <= ATOL * max_lr + RTOL * |want|
LIKE = 1e-6  # the namer's "same function": two writings of one mistake agree to float32's level, no closer


def _item(step: int) -> str:
    return f"lr at step {step}"


# ---------------------------------------------------------------- drawing cases


def _every(T: int, past: int = 10) -> list[int]:
    return list(range(T + past + 1))


def _sampled(g: torch.Generator, W: int, T: int, n: int = 48) -> list[int]:
    """The boundaries ±1 (0, W, T) and n steps drawn up to 2.5 × T, sorted."""
    fixed = {0, 1, 2, W - 1, W, W + 1, T - 1, T, T + 1, T + 2, (W + T) // 2, int(2.5 * T)}
    drawn = torch.randint(0, int(2.5 * T) + 1, (n,), generator=g).tolist()
    return sorted(s for s in fixed | set(drawn) if s >= 0)


def _schedule(max_lr: float, W: int, T: int, min_lr: float | None, steps: list[int], positional: bool = False
              ) -> Inputs:
    """min_lr None: left out (the default 0.0)."""
    args: dict[str, Any] = {"step": _steps_words(steps), "max_lr": max_lr, "warmup_steps": W, "total_steps": T}
    if min_lr is not None:
        args["min_lr"] = min_lr
    return Inputs(args=args, show={STEPS: steps, POSITIONAL: positional})


def _steps_words(steps: list[int]) -> str:
    """How the report shows the steps read: "0 … 31" (every step), or the first of them, the last and how many."""
    if steps == list(range(len(steps))):
        return f"0 … {steps[-1]}"
    return ", ".join(map(str, steps[:12])) + (f", … {steps[-1]} [{len(steps)}]" if len(steps) > 12 else "")


def _case(max_lr: float, W: int, T: int, min_lr: float | None = 0.0, *, past: int = 10, positional: bool = False):
    return lambda g: _schedule(max_lr, W, T, min_lr, _every(T, past), positional)


def _long(max_lr: float, W: int, T: int, min_lr: float | None):
    return lambda g: _schedule(max_lr, W, T, min_lr, _sampled(g, W, T))


def _far_past(g: torch.Generator) -> Inputs:
    W, T = 5, 20
    return _schedule(3e-4, W, T, 3e-5, _every(T, 20) + [50, 100, 1_000, 10**6, 10**9])


def _random(g: torch.Generator) -> Inputs:
    max_lr = pick(g, [1.0, 0.1, 1e-3, 6e-4, 3e-4, 5e-5, 2.5e-2])
    min_lr = pick(g, [0.0, 0.0, None, 0.1 * max_lr, 0.01 * max_lr, max_lr * float(torch.rand((), generator=g))])
    if pick(g, [False, False, False, False, True]):  # a long schedule, read at sampled steps
        T = randint(g, 200, 20_000)
        W = pick(g, [0, randint(g, 1, T // 10), randint(g, 1, T), T])
        return _schedule(max_lr, W, T, min_lr, _sampled(g, W, T))
    W = pick(g, [0, 1, 2, randint(g, 1, 10), randint(g, 1, 30), randint(g, 1, 30)])
    T = pick(g, [W, W + 1, W + randint(g, 2, 60), W + randint(g, 2, 60), W + randint(g, 2, 60)])
    T = max(T, 1)
    return _schedule(max_lr, W, T, min_lr, _every(T, pick(g, [10, 10, 25])))


FAMILIES = (
    Family("cs336_published", _case(1.0, 7, 21, 0.1, past=9)),
    Family("nanogpt_like", _case(6e-4, 10, 60, 6e-5)),
    Family("default_min_lr", _case(1e-3, 4, 20, None)),
    Family("min_lr_positive", _case(3e-4, 5, 25, 3e-5)),
    Family("no_warmup", _case(1e-3, 0, 16, 1e-4)),
    Family("no_warmup_default_min", _case(0.1, 0, 12, None)),
    Family("warmup_equals_total", _case(1e-3, 8, 8, 0.0)),
    Family("warmup_equals_total_floor", _case(2e-3, 6, 6, 2e-4)),
    Family("one_decay_step", _case(1e-3, 5, 6, 1e-4)),
    Family("total_one", _case(0.5, 0, 1, 0.05)),
    Family("total_one_all_warmup", _case(0.5, 1, 1, 0.0)),
    Family("warmup_one", _case(1e-2, 1, 10, 1e-3)),
    Family("min_equals_max", _case(1e-3, 4, 12, 1e-3)),
    Family("far_past_total", _far_past),
    Family("long_schedule", _long(3e-4, 2_000, 100_000, 3e-5)),
    Family("long_schedule_no_floor", _long(1e-3, 2_000, 100_000, 0.0)),
    Family("tiny_max_lr", _case(1e-8, 3, 15, 1e-9)),
    Family("positional_default_min", _case(1e-3, 5, 20, None, positional=True)),
    Family("random", _random, draws=84),
)


# ---------------------------------------------------------------- how a case runs


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """One call per step; the values by step ("lr at step s"), the first of them as the output."""
    a = inputs.args
    values: dict[str, Any] = {}
    for s in inputs.show[STEPS]:
        if inputs.show[POSITIONAL]:
            values[_item(s)] = entry(s, a["max_lr"], a["warmup_steps"], a["total_steps"])
        else:
            kwargs = {k: v for k, v in a.items() if k != "step"}
            values[_item(s)] = entry(step=s, **kwargs)
    return Outcome(next(iter(values.values())), values, {})


# ---------------------------------------------------------------- how a result is judged


def _kind(value: Any) -> str:
    """"float" for what the contract accepts (a Python float, an int 0, a NumPy float64), else what it is."""
    if isinstance(value, float) or isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return "float"
    if isinstance(value, FloatScalar):
        return "float" if value.dtype == "float64" else f"numpy {value.dtype}"
    if isinstance(value, TensorValue):
        return f"array {value.dtype}" if value.is_numpy else f"tensor {value.dtype}"
    return type(value).__name__


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, FloatScalar):
        return value.value
    if isinstance(value, TensorValue) and value.data is not None and value.data.numel() == 1:
        return float(value.data.double().reshape(()))
    return None


def _phase(case, step: int) -> str:
    W, T = case.inputs.args["warmup_steps"], case.inputs.args["total_steps"]
    return tr("warmup") if step < W else tr("decay") if step <= T else tr("after total")


def _accepted(case, step: int, want: float) -> list[float]:
    """The accepted values at one step: at step = W = T, max_lr or min_lr."""
    a = case.inputs.args
    if a["warmup_steps"] == a["total_steps"] == step:
        return [float(a["max_lr"]), float(a.get("min_lr", 0.0))]
    return [want]


def compare(kata, case, expected, got):
    """Every step's value: its type first, then its value within 1e-12·max_lr + 1e-9·|lr|."""
    want, have = expected[0].extras, got.extras
    max_lr = float(case.inputs.args["max_lr"])
    typed = [(k, v) for k, v in have.items() if _kind(v) != "float"]
    if typed:
        item, value = typed[0]
        return [Problem("type", item, tr(
            "{item} is {got}; expected a Python float, computed in double precision (it goes into "
            "param_group['lr']; an int 0 or a NumPy float64 also passes) — {n} of {total} steps", item=item,
            got=describe(value), n=len(typed), total=len(want)))]
    off = []
    for item, w in want.items():
        step = int(item.rsplit(" ", 1)[1])
        g = _number(have.get(item))
        if g is None or not any(abs(g - a) <= ATOL * max_lr + RTOL * abs(a) for a in _accepted(case, step, w)):
            off.append((step, g, w))
    if not off:
        return []
    return [Problem("values", "lr", _off_words(case, off, len(want), max_lr))]


def _off_words(case, off: list[tuple[int, float | None, float]], total: int, max_lr: float) -> str:
    phases: dict[str, int] = {}
    for step, _, _ in off:
        phases[_phase(case, step)] = phases.get(_phase(case, step), 0) + 1
    lines = [tr("lr differs at {n} of {total} steps ({phases}); the tolerance is 1e-12·max_lr + 1e-9·|lr|:", n=len(off),
                total=total, phases=tr(", ").join(f"{p} {k}" for p, k in phases.items()))]
    for step, g, w in off[:SHOWN]:
        lines.append(tr("  step {step} ({phase}): {got}, expected {want}", step=step, phase=_phase(case, step),
                        got=repr(g), want=repr(w)))
    if len(off) > SHOWN:
        lines.append(tr("  … and {n} more steps", n=len(off) - SHOWN))
    if all(g is not None and math.isfinite(g) and abs(g - w) <= 1e-6 * max(abs(w), max_lr) for _, g, w in off):
        lines.append(tr("Every difference is below 1e-6 of max_lr: float32 arithmetic on the way (a float32 tensor "
                        "or np.float32)? A scheduler computes in double precision: use math.cos and Python floats."))
    return "\n".join(lines)


def matches(kata, case, expected, variant, got) -> bool:
    """For the namer: the same kind of value at every step, and values alike to float32's level (two writings of one
    mistake differ in their last digits; the float32 mistake differs from the contract by ~1e-7)."""
    mine, theirs = variant.extras, got.extras
    if set(mine) != set(theirs):
        return False
    scale = float(case.inputs.args["max_lr"])
    for item, v in mine.items():
        g = theirs[item]
        if _kind(v).split(" ")[0] != _kind(g).split(" ")[0]:  # a float32 and a float64 tensor are one slip
            return False
        a, b = _number(v), _number(g)
        if a is None or b is None:
            if (a is None) != (b is None):
                return False
            continue
        if _alike(a, b, scale):
            continue
        step = int(item.rsplit(" ", 1)[1])
        accepted = _accepted(case, step, float("nan"))
        if len(accepted) == 1 or not any(_alike(a, x, scale) for x in accepted) or not any(_alike(b, x, scale) for x in accepted):
            return False  # at step = W = T, max_lr and min_lr are one answer
    return True


def _alike(a: float, b: float, scale: float) -> bool:
    return a == b or a != a and b != b or abs(a - b) <= LIKE * (scale + abs(b))


# ---------------------------------------------------------------- known mistakes


def _lr(step, max_lr, W, T, min_lr, *, warmup="zero", progress="decay", shape="cosine", floor="min_lr", guard=True,
        floor_first=False, min_lr_mode="contract", integer="", arithmetic="double", returns="float"):
    """The contract with one switch turned.

    warmup: "zero" (contract), "nanogpt" ((s + 1)/(W + 1)), "build_nanogpt" ((s + 1)/W), "min_lr" (from min_lr),
    or a float start factor (LinearLR: from factor·max_lr); progress: "decay" (contract), "over_total"
    ((s - W)/T), "from_zero" (s/T), "plus_one" ((s - W)/(T - W + 1)), "early" ((s - W + 1)/(T - W));
    shape: "cosine", "full_period", "linear"; floor: "min_lr" (contract), "none" (the cosine goes on), "zero";
    guard: the max(1, T - W) guard (False: a ZeroDivisionError at W = T); floor_first: the floor branch taken at
    step T too, before the cosine (nanoGPT's layout with >=: min_lr at W = T); min_lr_mode: "contract", "ignored"
    (decays to 0, min_lr held after), "ignored_all" (0 after too), "added" (min_lr + max_lr·cos); integer: "" or
    "warmup" / "progress" (floor division); arithmetic: "double", "float32_cos", "float32"; returns: "float",
    "tensor_cos" (the cosine branch returns its float32 tensor), "tensor" (a float64 tensor at every step).
    """
    if returns == "tensor":
        lr = _lr(step, max_lr, W, T, min_lr, warmup=warmup, progress=progress, shape=shape, floor=floor, guard=guard,
                 floor_first=floor_first, min_lr_mode=min_lr_mode, integer=integer, arithmetic=arithmetic)
        return torch.tensor(float(lr), dtype=torch.float64)
    if step < W:
        if integer == "warmup":
            return step // W * max_lr
        if arithmetic == "float32":
            return float(np.float32(max_lr) * np.float32(step) / np.float32(W))
        if warmup == "nanogpt":
            return max_lr * (step + 1) / (W + 1)
        if warmup == "build_nanogpt":
            return max_lr * (step + 1) / W
        if warmup == "min_lr":
            return min_lr + (max_lr - min_lr) * step / W
        if isinstance(warmup, float):
            return max_lr * (warmup + (1 - warmup) * step / W)
        return max_lr * step / W
    if (step > T or floor_first and step == T) and floor != "none":
        return 0.0 if floor == "zero" or min_lr_mode == "ignored_all" else min_lr
    low = 0.0 if min_lr_mode in ("ignored", "ignored_all") else min_lr
    span = max(1, T - W) if guard else T - W
    num, den = {"decay": (step - W, span), "over_total": (step - W, T), "from_zero": (step, T),
                "plus_one": (step - W, span + 1), "early": (step - W + 1, span)}[progress]
    p = num // den if integer == "progress" else num / den
    if shape == "linear":
        return max_lr - (max_lr - low) * p
    turns = 2.0 if shape == "full_period" else 1.0
    if returns == "tensor_cos":
        return low + (max_lr - low) * 0.5 * (1 + torch.cos(torch.tensor(math.pi * turns * p)))
    if arithmetic == "float32":
        f = np.float32
        return float(f(low) + (f(max_lr) - f(low)) * f(0.5) * (f(1) + np.cos(f(math.pi) * f(turns) * f(p))))
    cos = math.cos(math.pi * turns * p)
    if arithmetic == "float32_cos":
        cos = torch.cos(torch.tensor(math.pi * turns * p)).item()
    if min_lr_mode == "added":
        return min_lr + max_lr * 0.5 * (1 + cos)
    return low + (max_lr - low) * 0.5 * (1 + cos)


def _variant(**switches):
    """A learner's file as `kata demo` writes it: the entry point over `_lr` with the switches set."""
    def warmup_cosine_lr(step, max_lr, warmup_steps, total_steps, min_lr=0.0):
        return _lr(step, max_lr, warmup_steps, total_steps, min_lr, **switches)
    return warmup_cosine_lr


MISTAKES = (
    Mistake("nanogpt_warmup", _variant(warmup="nanogpt")),
    Mistake("nanogpt_warmup", _variant(warmup="nanogpt", guard=False), "verbatim"),
    Mistake("build_nanogpt_warmup", _variant(warmup="build_nanogpt")),
    Mistake("build_nanogpt_warmup", _variant(warmup="build_nanogpt", guard=False), "verbatim"),
    Mistake("warmup_from_min_lr", _variant(warmup="min_lr")),
    Mistake("warmup_start_factor", _variant(warmup=1 / 3), "linear_lr_default"),
    Mistake("warmup_start_factor", _variant(warmup=0.1), "tenth"),
    Mistake("warmup_start_factor", _variant(warmup=0.01), "hundredth"),
    Mistake("warmup_start_factor", _variant(warmup=1e-3), "thousandth"),
    Mistake("progress_over_total", _variant(progress="over_total")),
    Mistake("progress_ignores_warmup", _variant(progress="from_zero")),
    Mistake("full_cosine_period", _variant(shape="full_period")),
    Mistake("min_lr_ignored", _variant(min_lr_mode="ignored"), "held_after"),
    Mistake("min_lr_ignored", _variant(min_lr_mode="ignored_all"), "zero_after"),
    Mistake("min_lr_added", _variant(min_lr_mode="added"), "guard"),
    Mistake("min_lr_added", _variant(min_lr_mode="added", floor_first=True), "floor_first"),
    Mistake("linear_decay", _variant(shape="linear")),
    Mistake("integer_division", _variant(integer="warmup"), "warmup"),
    Mistake("integer_division", _variant(integer="progress"), "progress"),
    Mistake("no_floor_after_total", _variant(floor="none")),
    Mistake("zero_after_total", _variant(floor="zero")),
    Mistake("no_guard_at_warmup_equals_total", _variant(guard=False)),
    Mistake("last_step_not_at_min", _variant(progress="plus_one"), "denominator_plus_one"),
    Mistake("last_step_not_at_min", _variant(progress="early"), "numerator_plus_one"),
    Mistake("float32_arithmetic", _variant(arithmetic="float32_cos"), "cos"),
    Mistake("float32_arithmetic", _variant(arithmetic="float32"), "everything"),
    Mistake("tensor_returned", _variant(returns="tensor_cos"), "cosine_branch"),
    Mistake("tensor_returned", _variant(returns="tensor"), "every_step"),
)

# `kata check cosine-schedule --bench`: a long schedule read at every one of its steps (a torch tensor built per step
# shows here: ~100x the reference's Python floats).
BENCH = ("W 2 000, T 100 000, every step 0 … 100 010", lambda g: _schedule(3e-4, 2_000, 100_000, 3e-5, _every(100_000)))
