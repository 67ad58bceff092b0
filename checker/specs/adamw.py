"""Case families for `adamw`: steps 1, 2 and 1000, ten chained steps fed back, the decay switched
off or made large, gradients of ~1e-8 (where eps placement shows) and exactly 0, β1 = 0, β2 = 0,
lr = 0, a large eps, a 0-dim and a 3-D parameter, float64.

A chained case calls adamw_step ten times, each call on the learner's own outputs of the call
before, with a fresh gradient each step; every step's outputs are compared ("param after step 7").
The tolerances are tighter than the generic table's: the update is about lr · 1 on a parameter of
about 1, so a 1e-4 relative tolerance on the parameter would hide a 10% error in the update.
"""
from __future__ import annotations

import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._rl import pick, randint

_OUTPUTS = ("param", "exp_avg", "exp_avg_sq")
CHAIN = "steps"  # Inputs.show key: how many chained calls
GRAD_SEED = "grad_seed"  # Inputs.show key: the seed of the gradients of the chained steps after the first


def _state(g: torch.Generator, shape: tuple[int, ...], step: int, gscale: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Moments as an optimiser that already took step - 1 steps holds them (zeros before the first)."""
    if step == 1:
        return torch.zeros(shape, dtype=torch.float64), torch.zeros(shape, dtype=torch.float64)
    f64 = dict(generator=g, dtype=torch.float64)
    exp_avg = 0.3 * gscale * torch.randn(shape, **f64)
    exp_avg_sq = gscale ** 2 * (0.05 + torch.rand(shape, **f64)) * min(1.0, 0.02 * step)
    return exp_avg, exp_avg_sq


def _draw(g: torch.Generator, shape: tuple[int, ...] = (4, 5), *, step: int = 1, gscale: float = 1.0,
          grad: str = "normal", dtype: torch.dtype = torch.float32, chain: int = 0, **hyper) -> Inputs:
    f64 = dict(generator=g, dtype=torch.float64)
    param = torch.randn(shape, **f64)
    g_ = torch.zeros(shape, dtype=torch.float64) if grad == "zero" else gscale * torch.randn(shape, **f64)
    exp_avg, exp_avg_sq = _state(g, shape, step, gscale if grad != "zero" else 1.0)
    args = {"param": param, "grad": g_, "exp_avg": exp_avg, "exp_avg_sq": exp_avg_sq}
    args = {k: v.to(dtype) for k, v in args.items()}
    args["step"] = step
    args.update(hyper)
    show = {"step": step, **hyper}
    if chain:
        show.update({CHAIN: chain, GRAD_SEED: int(torch.randint(2**31, (1,), generator=g)), "gscale": gscale})
    return Inputs(args=args, show=show)


def _case(shape=(4, 5), **kw):
    return lambda g: _draw(g, shape, **kw)


def _random(g: torch.Generator) -> Inputs:
    shape = tuple(randint(g, 1, 6) for _ in range(randint(g, 0, 3)))
    step = pick(g, [1, 1, 2, 3, 5, 10, 20, 100, 1000])
    hyper = {"lr": pick(g, [1e-3, 1e-3, 3e-4, 1e-2, 0.1]), "weight_decay": pick(g, [0.0, 0.01, 0.01, 0.1, 0.5])}
    if float(torch.rand((), generator=g)) < 0.5:
        hyper["betas"] = pick(g, [(0.9, 0.999), (0.9, 0.95), (0.8, 0.99), (0.5, 0.9)])
    if float(torch.rand((), generator=g)) < 0.2:
        hyper["eps"] = pick(g, [1e-8, 1e-6, 1e-3])
    return _draw(g, shape, step=step, gscale=pick(g, [1.0, 1.0, 0.1, 10.0]), **hyper)


FAMILIES = (
    Family("step_one", _case(step=1)),
    Family("step_two", _case(step=2)),
    Family("step_thousand", _case(step=1000)),
    Family("defaults_only", lambda g: _draw(g, (6,), step=3)),
    Family("chained_ten_steps", _case((3, 4), step=1, chain=10, lr=1e-2, weight_decay=0.1)),
    Family("chained_ten_steps_defaults", _case((5,), step=1, chain=10)),
    Family("chained_from_step_fifty", _case((3, 4), step=50, chain=10, lr=1e-2, betas=(0.8, 0.99))),
    Family("chained_large_decay", _case((3, 4), step=1, chain=10, lr=0.1, weight_decay=0.5)),
    Family("chained_float64", _case((2, 3), step=1, chain=10, lr=1e-2, dtype=torch.float64)),
    Family("weight_decay_zero", _case(step=4, weight_decay=0.0)),
    Family("large_lr_weight_decay", _case(step=3, lr=0.1, weight_decay=0.5)),
    Family("tiny_gradients", _case(step=1, gscale=1e-8, lr=1e-2)),
    Family("tiny_gradients_later_step", _case(step=10, gscale=1e-8, lr=1e-2)),
    Family("zero_gradients", _case(step=5, grad="zero")),
    Family("zero_gradients_step_one", _case(step=1, grad="zero")),
    Family("beta1_zero", _case(step=3, betas=(0.0, 0.999))),
    Family("beta2_zero", _case(step=3, betas=(0.9, 0.0))),
    Family("lr_zero", _case(step=3, lr=0.0)),
    Family("large_eps", _case(step=2, gscale=0.05, eps=1e-2)),
    Family("scalar_param", _case((), step=2, weight_decay=0.1)),
    Family("param_3d", _case((2, 3, 4), step=7)),
    Family("float64", _case(step=6, lr=1e-2, dtype=torch.float64)),
    Family("float64_tiny_gradients", _case(step=1, gscale=1e-8, lr=1e-2, dtype=torch.float64)),
    Family("random", _random, draws=80),
    Family("device", _case(step=2), track_device=True),
)

# A parameter of ~1 moves by ~lr per step: its tolerance must resolve the update, not just the parameter.
_TOL = {torch.float32: (1e-5, 1e-6), torch.float64: (1e-10, 1e-12)}
# What each output is computed from: where two terms nearly cancel, rounding is relative to them, not the result.
_TERMS = {"param": ("param",), "exp_avg": ("exp_avg", "grad"), "exp_avg_sq": ("exp_avg_sq", "grad")}


def tolerance_for(case, item: str, dtype: torch.dtype, expected: torch.Tensor | None):
    """(rtol, atol) with atol scaled by the size of the item and of the terms it is made of (moments of
    1e-8 gradients are ~1e-19, so no fixed atol fits)."""
    if expected is None or dtype not in _TOL:
        return None
    rtol, atol = _TOL[dtype]
    name = item.split(" after ")[0]
    sizes = [expected.double().abs().max()] if expected.numel() else []
    for arg in _TERMS.get(name, ()):
        value = case.inputs.args[arg].double().abs()
        sizes.append(value.max() ** 2 if name == "exp_avg_sq" and arg == "grad" else value.max())
    scale = float(max(sizes)) if sizes else 0.0
    return rtol, atol * scale


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """One call (the default protocol), or a chain of calls, each fed the outputs of the one before."""
    steps = inputs.show.get(CHAIN)
    if not steps:
        return spec_api.call(kata, entry, inputs, device, track_device)
    args = {name: spec_api.place(value, device) for name, value in inputs.args.items()}
    first = entry(**args)
    extras: dict[str, torch.Tensor] = {}
    state = first
    g = torch.Generator().manual_seed(inputs.show[GRAD_SEED])
    param = inputs.args["param"]
    for step in range(args["step"] + 1, args["step"] + steps):
        if not (isinstance(state, tuple) and len(state) == 3 and all(isinstance(t, torch.Tensor) for t in state)):
            break  # the structure check reports the first call's output; nothing more to thread
        grad = (inputs.show["gscale"] * torch.randn(param.shape, generator=g, dtype=torch.float64)).to(param.dtype)
        state = entry(**{**args, "param": state[0], "grad": grad.to(device), "exp_avg": state[1],
                         "exp_avg_sq": state[2], "step": step})
        if isinstance(state, tuple):
            extras.update({f"{name} after step {step}": t for name, t in zip(_OUTPUTS, state)})
    return Outcome(first, extras, args)


# ---------------------------------------------------------------- known mistakes


def _step(param, grad, exp_avg, exp_avg_sq, step, lr, betas, eps, weight_decay, *, l2=False, bias_correction=True,
          eps_inside=False, offset=0, decay_after=False, eps_outside_correction=False, decay_lr=True,
          one_minus_beta=True, return_corrected=False, swap_betas=False, decay=True):
    beta1, beta2 = betas[::-1] if swap_betas else betas
    t = step + offset
    g = grad + weight_decay * param if l2 else grad
    m = beta1 * exp_avg + ((1 - beta1) if one_minus_beta else 1.0) * g
    v = beta2 * exp_avg_sq + (1 - beta2) * g * g
    bc1, bc2 = (1 - beta1 ** t, 1 - beta2 ** t) if bias_correction else (1.0, 1.0)
    decay = 1 - (lr if decay_lr else 1.0) * weight_decay if decay else 1.0
    if eps_inside:
        update = lr * (m / bc1) / torch.sqrt(v / bc2 + eps)
    elif eps_outside_correction:  # the Adam paper's efficient form with eps-hat = eps
        update = lr * bc2 ** 0.5 / bc1 * m / (v.sqrt() + eps)
    else:
        update = lr * (m / bc1) / ((v / bc2).sqrt() + eps)
    if return_corrected:
        return param * decay - update, m / bc1, v / bc2
    if l2:
        return param - update, m, v
    if decay_after:
        return (param - update) * decay, m, v
    return param * decay - update, m, v


def _variant(**switches):
    def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
        return _step(param, grad, exp_avg, exp_avg_sq, step, lr, betas, eps, weight_decay, **switches)
    return adamw_step


MISTAKES = (
    Mistake("l2_in_gradient", _variant(l2=True)),
    Mistake("no_bias_correction", _variant(bias_correction=False)),
    Mistake("eps_inside_sqrt", _variant(eps_inside=True)),
    Mistake("zero_based_step", _variant(offset=1)),
    Mistake("decay_after_update", _variant(decay_after=True)),
    Mistake("eps_outside_bias_correction", _variant(eps_outside_correction=True)),
    Mistake("decay_without_lr", _variant(decay_lr=False)),
    Mistake("no_one_minus_beta", _variant(one_minus_beta=False)),
    Mistake("returns_corrected_moments", _variant(return_corrected=True)),
    Mistake("betas_swapped", _variant(swap_betas=True)),
    Mistake("weight_decay_ignored", _variant(decay=False)),
)


# `kata check adamw --bench`: one step over 4M parameters (a 2048 x 2048 weight).
BENCH = ("param [2048, 2048], step 10", lambda g: _draw(g, (2048, 2048), step=10))
