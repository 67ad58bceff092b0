"""Case families for `grpo-loss`: both shapes, masks, both sides of the clip range, the KL term.

Every case compares the loss and its gradient w.r.t. new_log_probs (the loss is a scalar, so the
backward is loss.backward()): a ratio cut off from the graph, or a clipped token that still passes
a gradient, shows there even when the value is right.
"""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint, uniform

_OMIT = object()  # leave `mask` out of the call, so its default is used


def _draw(g: torch.Generator, G: int, T: int | None = None, *, shift: object = 0.4, adv_sign: float = 0.0,
          lengths: tuple[int, ...] | str | None = None, mask_kind: object = "bool", eps: float = 0.2,
          beta: float = 0.04, dtype: torch.dtype = torch.float32) -> Inputs:
    """shift: the std of new - old, or ("far", s): new - old = ±s per completion (sign random, or +s
    when s > 0 and every completion shifted alike with "far_all"); adv_sign: 0 = random signs."""
    shape = (G,) if T is None else (G, T)
    old = -(2.5 + 3.0 * torch.rand(shape, generator=g, dtype=torch.float64))  # log-probs in [-5.5, -2.5]
    noise = torch.randn(shape, generator=g, dtype=torch.float64)
    if isinstance(shift, tuple) and shift[0] == "far":  # |new - old| = s per completion: far outside the clip range
        s = shift[1]
        if len(shift) == 3:  # per-completion random sign
            sign = torch.where(torch.rand(G, generator=g) < 0.5, -1.0, 1.0).to(torch.float64)
        else:
            sign = torch.ones(G, dtype=torch.float64)
        sign = sign if T is None else sign[:, None]
        new = old + sign * (s + 0.1 * noise.abs())
    elif shift == "same":
        new = old.clone()
    else:
        new = old + float(shift) * noise
    new = new.clamp(max=-1e-3)
    ref = (new + 0.3 * torch.randn(shape, generator=g, dtype=torch.float64)).clamp(max=-1e-3)
    adv = torch.randn(G, generator=g, dtype=torch.float64)
    if adv_sign:
        adv = adv.abs().clamp(min=0.1) * adv_sign
    args = {"old_log_probs": old.to(dtype), "new_log_probs": new.to(dtype), "advantages": adv.to(dtype),
            "ref_log_probs": ref.to(dtype), "clip_epsilon": eps, "kl_beta": beta}
    show = {"clip_epsilon": eps, "kl_beta": beta}
    if T is not None and mask_kind is not _OMIT:
        mask = None
        if mask_kind is not None:
            if lengths == "random" or lengths is None:
                n = torch.randint(1, T + 1, (G,), generator=g)
            else:
                n = torch.tensor(lengths)
            mask = torch.arange(T)[None, :] < n[:, None]  # (G, T) each completion's real tokens come first
            mask = mask if mask_kind == "bool" else mask.to(dtype)
            show["lengths"] = n.tolist()
        args["mask"] = mask
    return Inputs(args=args, grad_of=("new_log_probs",), probe=None, show=show)


def _case(G, T=None, **kw):
    return lambda g: _draw(g, G, T, **kw)


def _zero_advantages(g: torch.Generator) -> Inputs:
    inputs = _draw(g, 4, 6, lengths=(6, 2, 4, 1), beta=0.5)
    inputs.args["advantages"] = torch.zeros(4)
    return inputs


def _random(g: torch.Generator) -> Inputs:
    G = randint(g, 2, 8)
    T = None if float(torch.rand((), generator=g)) < 0.25 else randint(g, 1, 12)
    mask_kind = pick(g, ["bool", "bool", "float", None, _OMIT])
    eps = pick(g, [0.1, 0.2, 0.2, 0.3])
    beta = pick(g, [0.0, 0.01, 0.04, 0.04, 0.1])
    shift = round(uniform(g, 0.1, 1.0), 3)
    return _draw(g, G, T, shift=shift, lengths="random", mask_kind=mask_kind, eps=eps, beta=beta)


FAR = ("far", 2.0)  # ratios of about e^±2: 7.4 or 0.14, far outside any clip range
FAR_MIXED = ("far", 2.0, "mixed signs")

FAMILIES = (
    Family("per_completion", _case(8)),
    Family("per_completion_two", _case(2)),
    Family("per_token_no_mask", _case(4, 6, mask_kind=None)),
    Family("per_token_mask_omitted", _case(4, 6, mask_kind=_OMIT)),
    Family("per_token_bool_mask", _case(5, 8, lengths=(8, 3, 1, 6, 5))),
    Family("per_token_float_mask", _case(5, 8, lengths=(8, 3, 1, 6, 5), mask_kind="float")),
    Family("length_one_completion", _case(3, 7, lengths=(1, 7, 2))),
    Family("one_token_each", _case(4, 1, mask_kind=None)),
    Family("kl_beta_zero", _case(4, 6, lengths=(6, 2, 4, 1), beta=0.0)),
    Family("zero_advantages", _zero_advantages),
    Family("large_kl_beta", _case(4, 6, lengths=(6, 2, 4, 1), beta=1.0)),
    Family("clipped_above", _case(4, 6, shift=FAR, adv_sign=1.0, lengths=(6, 3, 1, 5))),
    Family("clipped_below", _case(4, 6, shift=("far", -2.0), adv_sign=-1.0, lengths=(6, 3, 1, 5))),
    Family("unclipped_above", _case(4, 6, shift=FAR, adv_sign=-1.0, lengths=(6, 3, 1, 5))),
    Family("unclipped_below", _case(4, 6, shift=("far", -2.0), adv_sign=1.0, lengths=(6, 3, 1, 5))),
    Family("far_ratios_mixed", _case(6, 8, shift=FAR_MIXED, lengths="random"), draws=2),
    Family("far_ratios_per_completion", _case(8, shift=FAR_MIXED)),
    Family("square", _case(5, 5, lengths=(5, 2, 4, 1, 3))),
    Family("new_equals_old", _case(4, 6, shift="same", lengths=(6, 2, 4, 1))),
    Family("wide_clip", _case(4, 6, shift=0.8, lengths=(6, 2, 4, 1), eps=0.5)),
    Family("narrow_clip", _case(4, 6, shift=0.3, lengths=(6, 2, 4, 1), eps=0.05)),
    Family("float64", _case(4, 6, lengths=(6, 2, 4, 1), mask_kind="float", dtype=torch.float64)),
    Family("float64_per_completion", _case(6, dtype=torch.float64)),
    Family("long_completions", _case(4, 64, lengths=(64, 1, 30, 47))),
    Family("random", _random, draws=76),
    Family("device", _case(4, 6, mask_kind=None), track_device=True),
    Family("device_mask", _case(4, 6), track_device=True),
)


# ---------------------------------------------------------------- known mistakes


def _loss(old, new, adv, ref, eps, beta, mask, *, pick_max=False, inverted=False, clip=True, kl="k3",
          reduce="per_completion", kl_reduce=None, use_mask=True, detach=False, kl_sign=1.0, clamp_only=False,
          adv_along_tokens=False, fixed_eps=None, fixed_beta=None):
    """reduce / kl_reduce: how the surrogate / the KL term is averaged over tokens ("per_completion",
    "token_mean" over every valid token, "token_sum" per completion, "max_length" = sum / T)."""
    eps = eps if fixed_eps is None else fixed_eps
    beta = beta if fixed_beta is None else fixed_beta
    A = adv if new.dim() == 1 else (adv[None, :] if adv_along_tokens else adv[:, None])
    ratio = torch.exp(old - new) if inverted else torch.exp(new - old)
    ratio = ratio.detach() if detach else ratio
    clipped = torch.clamp(ratio, 1 - eps, 1 + eps) if clip else ratio
    surr = clipped * A if clamp_only else (torch.max if pick_max else torch.min)(ratio * A, clipped * A)
    if kl == "k3":
        div = torch.exp(ref - new) - (ref - new) - 1
    elif kl == "reversed":
        div = torch.exp(new - ref) - (new - ref) - 1
    elif kl == "k1":  # the plain log-ratio
        div = new - ref
    else:  # the seed notes' `exp(new) * (new - ref)`
        div = torch.exp(new) * (new - ref)
    loss = -(surr - kl_sign * beta * div)
    if loss.dim() == 1:
        return loss.mean()
    m = torch.ones_like(loss) if (mask is None or not use_mask) else mask.to(loss.dtype)

    def average(x, how):
        if how == "token_mean":
            return (x * m).sum() / m.sum()
        if how == "token_sum":
            return (x * m).sum(-1).mean()
        if how == "max_length":
            return ((x * m).sum(-1) / x.shape[-1]).mean()
        return ((x * m).sum(-1) / m.sum(-1)).mean()

    if kl_reduce is None:
        return average(loss, reduce)
    return -(average(surr, reduce) - kl_sign * beta * average(div, kl_reduce))


def _variant(**switches):
    def fn(old_log_probs, new_log_probs, advantages, ref_log_probs, clip_epsilon=0.2, kl_beta=0.04, mask=None):
        return _loss(old_log_probs, new_log_probs, advantages, ref_log_probs, clip_epsilon, kl_beta, mask,
                     **switches)
    return fn


MISTAKES = (
    Mistake("max_not_min", _variant(pick_max=True)),
    Mistake("clamp_only", _variant(clamp_only=True)),
    Mistake("ratio_inverted", _variant(inverted=True)),
    Mistake("no_clipping", _variant(clip=False)),
    Mistake("kl_reversed", _variant(kl="reversed")),
    Mistake("kl_notes", _variant(kl="notes")),
    Mistake("kl_log_ratio", _variant(kl="k1")),
    Mistake("token_level_mean", _variant(reduce="token_mean")),
    Mistake("kl_token_level_mean", _variant(kl_reduce="token_mean")),
    Mistake("surrogate_token_level_mean", _variant(reduce="token_mean", kl_reduce="per_completion")),
    Mistake("token_sum", _variant(reduce="token_sum")),
    Mistake("divided_by_max_length", _variant(reduce="max_length")),
    Mistake("mask_ignored", _variant(use_mask=False)),
    Mistake("ratio_detached", _variant(detach=True)),
    Mistake("kl_sign", _variant(kl_sign=-1.0)),
    Mistake("advantages_along_tokens", _variant(adv_along_tokens=True)),
    Mistake("clip_epsilon_ignored", _variant(fixed_eps=0.2)),
    Mistake("kl_beta_ignored", _variant(fixed_beta=0.04)),
)


def _bench(g: torch.Generator) -> Inputs:
    G, T = 64, 1024
    old, new, ref = (torch.randn(G, T, generator=g) * 0.1 - 2 for _ in range(3))
    lengths = torch.randint(1, T + 1, (G,), generator=g)
    mask = torch.arange(T)[None, :] < lengths[:, None]
    return Inputs(args={"old_log_probs": old, "new_log_probs": new, "advantages": torch.randn(G, generator=g),
                        "ref_log_probs": ref, "mask": mask}, grad_of=("new_log_probs",))


# `kata check grpo-loss --bench`: 64 completions of up to 1024 tokens, forward and backward.
BENCH = ("G = 64, T = 1024, ragged mask", _bench)
