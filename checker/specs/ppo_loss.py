"""Case families for `ppo-loss`: the four clip quadrants, the value clip around the old values with
returns on both sides, value_clip None or unlike clip_eps, the coefficients at 0, entropy given or
not, [T, N] batches, N = 1, float64.

Every case compares the three losses and the gradients of `total` w.r.t. new_log_probs, values and
entropy (when given). A gradient that is None counts as zeros: a term multiplied by a coefficient of
0 may be left out of the graph (entropy with ent_coef = 0, values with vf_coef = 0).
"""
from __future__ import annotations

import warnings

import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._rl import pick, randint, uniform

_DEFAULTS = {"clip_eps": 0.2, "value_clip": 0.2, "vf_coef": 0.5, "entropy": None, "ent_coef": 0.0}


def _draw(g: torch.Generator, shape: tuple[int, ...], *, shift: object = 0.4, adv_sign: float = 0.0,
          value_shift: float = 0.4, returns: str = "random", entropy: bool = False,
          dtype: torch.dtype = torch.float32, **scalars) -> Inputs:
    """shift: the std of new - old, "same" (new = old), or ("far", s): |new - old| = s + a little,
    with sign s's (or a random sign per element when s is given as ("far", s, "mixed"));
    value_shift: the std of values - old_values (0.2 is the default value clip);
    returns: "random" (N(old_values, 1)), "between" (between old_values and values), "beyond" (past
    values, away from old_values)."""
    f64 = dict(generator=g, dtype=torch.float64)
    old = -(0.5 + 2.5 * torch.rand(shape, **f64))  # log-probs in [-3, -0.5]
    if shift == "same":
        new = old.clone()
    elif isinstance(shift, tuple):
        s = shift[1]
        sign = torch.where(torch.rand(shape, generator=g) < 0.5, -1.0, 1.0).double() if len(shift) == 3 else 1.0
        new = old + sign * (s + 0.1 * torch.rand(shape, **f64))
    else:
        new = old + float(shift) * torch.randn(shape, **f64)
    adv = torch.randn(shape, **f64)
    if adv_sign:
        adv = adv.abs().clamp(min=0.1) * adv_sign
    old_values = torch.randn(shape, **f64)
    values = old_values + value_shift * torch.randn(shape, **f64)
    if returns == "between":
        returns_ = old_values + torch.rand(shape, **f64) * (values - old_values)
    elif returns == "beyond":
        returns_ = values + (0.2 + torch.rand(shape, **f64)) * torch.sign(values - old_values)
    else:
        returns_ = old_values + torch.randn(shape, **f64)
    args = {"new_log_probs": new, "old_log_probs": old, "advantages": adv, "values": values,
            "old_values": old_values, "returns": returns_}
    args = {k: v.to(dtype) for k, v in args.items()}
    chosen = {**_DEFAULTS, **scalars}
    grad_of = ("new_log_probs", "values")
    if entropy:
        chosen["entropy"] = (0.2 + 1.5 * torch.rand(shape, **f64)).to(dtype)  # a policy's entropy: > 0
        grad_of += ("entropy",)
    args.update({k: v for k, v in chosen.items() if k in scalars or k == "entropy" and entropy})
    show = {k: v for k, v in chosen.items() if k != "entropy"}
    return Inputs(args=args, grad_of=grad_of, show=show)


def _case(*shape: int, **kw):
    return lambda g: _draw(g, shape, **kw)


def _zero_advantages(g: torch.Generator) -> Inputs:
    inputs = _draw(g, (12,), entropy=True, ent_coef=0.01)
    inputs.args["advantages"] = torch.zeros(12)
    return inputs


def _random(g: torch.Generator) -> Inputs:
    shape = (randint(g, 1, 64),) if float(torch.rand((), generator=g)) < 0.7 else (randint(g, 1, 8), randint(g, 1, 8))
    clip_eps = pick(g, [0.1, 0.2, 0.2, 0.3])
    value_clip = pick(g, [None, clip_eps, clip_eps, 0.5, 1.0, 0.1])
    scalars = {"clip_eps": clip_eps, "value_clip": value_clip, "vf_coef": pick(g, [0.5, 0.5, 1.0, 0.25])}
    entropy = float(torch.rand((), generator=g)) < 0.6
    if entropy or float(torch.rand((), generator=g)) < 0.5:
        scalars["ent_coef"] = pick(g, [0.0, 0.01, 0.01, 0.1])
    return _draw(g, shape, shift=round(uniform(g, 0.1, 0.8), 3), value_shift=round(uniform(g, 0.1, 1.5), 3),
                 entropy=entropy, **scalars)


FAR = ("far", 2.0)  # ratios of about e^±2 (7.4 or 0.14): far outside any clip range

FAMILIES = (
    Family("defaults", _case(16)),
    Family("clipped_above", _case(12, shift=FAR, adv_sign=1.0)),
    Family("clipped_below", _case(12, shift=("far", -2.0), adv_sign=-1.0)),
    Family("unclipped_above", _case(12, shift=FAR, adv_sign=-1.0)),
    Family("unclipped_below", _case(12, shift=("far", -2.0), adv_sign=1.0)),
    Family("far_ratios_mixed", _case(32, shift=("far", 2.0, "mixed")), draws=2),
    Family("new_equals_old", _case(16, shift="same", entropy=True, ent_coef=0.01)),
    Family("values_far_returns_between", _case(16, value_shift=2.0, returns="between")),
    Family("values_far_returns_beyond", _case(16, value_shift=2.0, returns="beyond")),
    Family("values_far_returns_random", _case(24, value_shift=2.0), draws=2),
    Family("value_clip_none", _case(16, value_shift=1.0, value_clip=None)),
    Family("value_clip_wider", _case(16, value_shift=1.0, clip_eps=0.2, value_clip=1.0)),
    Family("value_clip_narrower", _case(16, value_shift=0.5, clip_eps=0.3, value_clip=0.05)),
    Family("vf_coef_zero", _case(16, value_shift=1.0, vf_coef=0.0)),
    Family("vf_coef_one", _case(16, value_shift=1.0, vf_coef=1.0)),
    Family("entropy_none_ent_coef_set", _case(16, ent_coef=0.05)),
    Family("entropy_ent_coef_zero", _case(16, entropy=True, ent_coef=0.0)),
    Family("entropy_bonus", _case(16, entropy=True, ent_coef=0.01)),
    Family("entropy_large_coef", _case(16, entropy=True, ent_coef=0.5)),
    Family("time_by_env", _case(8, 4, entropy=True, ent_coef=0.01, value_shift=1.0)),
    Family("time_by_env_square", _case(5, 5, value_shift=1.0)),
    Family("one_sample", _case(1, shift=0.8, value_shift=1.0)),
    Family("one_step_one_env", _case(1, 1, shift=0.8, value_shift=1.0)),
    Family("zero_advantages", _zero_advantages),
    Family("wide_clip", _case(16, shift=0.8, clip_eps=0.5, value_clip=0.5)),
    Family("narrow_clip", _case(16, shift=0.3, clip_eps=0.05, value_clip=0.05)),
    Family("large_batch", _case(2048, entropy=True, ent_coef=0.01, value_shift=1.0)),
    Family("float64", _case(16, entropy=True, ent_coef=0.01, value_shift=1.0, dtype=torch.float64)),
    Family("float64_time_by_env", _case(6, 5, shift=("far", 1.5, "mixed"), value_shift=1.0, dtype=torch.float64)),
    Family("random", _random, draws=72),
    Family("device", _case(8, 4, entropy=True, ent_coef=0.01), track_device=True),
    Family("device_defaults", _case(8, 4), track_device=True),
)


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """The default protocol (backward of total); then a gradient that is None counts as zeros."""
    outcome = spec_api.call(kata, entry, inputs, device, track_device)
    value = outcome.value
    total = value[0] if isinstance(value, (tuple, list)) and value else value
    if isinstance(total, torch.Tensor) and total.requires_grad:  # a total cut off the graph keeps its Nones
        for name in inputs.grad_of:
            if outcome.extras.get(f"grad of {name}") is None:
                outcome.extras[f"grad of {name}"] = torch.zeros_like(outcome.args[name]).detach()
    return outcome


# ---------------------------------------------------------------- known mistakes


def _loss(new, old, A, V, V_old, R, clip_eps, value_clip, vf_coef, entropy, ent_coef, *, pick_min=False,
          clamp_only=False, inverted=False, clip_around="old", half=0.5, ent_sign=-1.0, normalise=None,
          value_eps=None, value_clamp_only=False, detach_ratio=False, half_on="both", value_pick="max",
          weigh_value=True, ent_reduce="mean", clip_of="delta"):
    """normalise: None, "unbiased" (A.std()), "guarded" (SB3: only when there is more than one sample),
    "biased" (std(unbiased=False)); half_on: "both" (0.5 * max(...)), "unclipped" or "clipped" (the 0.5 on
    one branch of the max); clip_of: "delta" (old + clamp(V - old)), "value" (old + clamp(V)), "absolute"
    (clamp(V))."""
    if normalise is not None and not (normalise == "guarded" and A.numel() <= 1):
        with warnings.catch_warnings():  # the std of one sample is NaN, as in the learner's code
            warnings.simplefilter("ignore")
            A = (A - A.mean()) / (A.std(unbiased=normalise != "biased") + 1e-8)
    ratio = torch.exp(old - new) if inverted else torch.exp(new - old)
    ratio = ratio.detach() if detach_ratio else ratio
    clipped = -A * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    policy = clipped if clamp_only else (torch.min if pick_min else torch.max)(-A * ratio, clipped)
    policy = policy.mean()
    unclipped = (V - R) ** 2
    c = clip_eps if value_eps == "clip_eps" else value_clip
    if value_clip is None:
        value = half * unclipped.mean()
    else:
        centre = R if clip_around == "returns" else V_old
        if clip_of == "absolute":
            v_clipped = torch.clamp(V, -c, c)
        else:
            v_clipped = centre + torch.clamp(V if clip_of == "value" else V - centre, -c, c)
        squared = (v_clipped - R) ** 2
        if half_on == "unclipped":
            unclipped, squared, outer = half * unclipped, squared, 1.0
        elif half_on == "clipped":
            unclipped, squared, outer = unclipped, half * squared, 1.0
        else:
            outer = half
        pick = torch.min if value_pick == "min" else torch.max
        value = outer * (squared if value_clamp_only else pick(unclipped, squared)).mean()
    total = policy + (vf_coef if weigh_value else 1.0) * value
    if entropy is not None:
        total = total + ent_sign * ent_coef * (entropy.sum() if ent_reduce == "sum" else entropy.mean())
    return total, policy, value


def _variant(**switches):
    def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns, clip_eps=0.2,
                 value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
        return _loss(new_log_probs, old_log_probs, advantages, values, old_values, returns, clip_eps, value_clip,
                     vf_coef, entropy, ent_coef, **switches)
    return ppo_loss


MISTAKES = (
    Mistake("min_not_max", _variant(pick_min=True)),
    Mistake("policy_clamp_only", _variant(clamp_only=True)),
    Mistake("ratio_inverted", _variant(inverted=True)),
    Mistake("ratio_detached", _variant(detach_ratio=True)),
    Mistake("value_clip_around_returns", _variant(clip_around="returns")),
    Mistake("value_clamp_only", _variant(value_clamp_only=True)),
    Mistake("clip_eps_for_value_clip", _variant(value_eps="clip_eps")),
    Mistake("no_half", _variant(half=1.0)),
    Mistake("entropy_sign", _variant(ent_sign=1.0)),
    Mistake("advantages_normalised", _variant(normalise="unbiased")),
    Mistake("advantages_normalised_guarded", _variant(normalise="guarded")),
    Mistake("advantages_normalised_biased", _variant(normalise="biased")),
    Mistake("half_on_unclipped_only", _variant(half_on="unclipped")),
    Mistake("half_on_clipped_only", _variant(half_on="clipped")),
    Mistake("value_min_not_max", _variant(value_pick="min")),
    Mistake("vf_coef_left_out", _variant(weigh_value=False)),
    Mistake("entropy_summed", _variant(ent_reduce="sum")),
    Mistake("value_clip_on_value", _variant(clip_of="value")),
    Mistake("value_clamped_absolute", _variant(clip_of="absolute")),
)


def _bench(g: torch.Generator) -> Inputs:
    inputs = _draw(g, (64, 4096), entropy=True, ent_coef=0.01)  # a 256k-sample rollout's minibatch pass
    return inputs


# `kata check ppo-loss --bench`: one loss over 256k samples, forward and backward.
BENCH = ("[T, N] = [64, 4096], value clip, entropy", _bench)
