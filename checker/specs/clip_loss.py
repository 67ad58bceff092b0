"""Case families for `clip-loss`: batch sizes 1 to 64, widths 1 to 48, rows of very different lengths (an
unnormalised answer fails), unit-norm inputs, logit scales ln(1/0.07), 0, -1, ln 50 and ln 100 in float32
and float64 (a softmax without the max subtracted overflows at 100), aligned and identical pairs.

Compared: the loss and its gradients w.r.t. both embeddings and logit_scale (float32 cases with D < 4
compare logit_scale's only: at D = 1, x / ‖x‖ is a sign and its gradient is rounding noise).
"""
from __future__ import annotations

import math

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _align
from checker.specs._align import TOLERANCES  # noqa: F401 — the spec's hook
from checker.specs._rl import pick, randint

INIT = math.log(1 / 0.07)


def _draw(g: torch.Generator, N: int, D: int, *, scale: float = INIT, norms: str = "lognormal", pairs: str = "random",
          dtype=torch.float32) -> Inputs:
    image = torch.randn(N, D, generator=g, dtype=torch.float64)
    if pairs == "identical":
        text = image.clone()
    elif pairs == "aligned":
        text = image + 0.3 * torch.randn(N, D, generator=g, dtype=torch.float64)
    else:
        text = torch.randn(N, D, generator=g, dtype=torch.float64)
    for x in (image, text):
        x /= x.norm(dim=-1, keepdim=True).clamp(min=1e-3)  # unit rows, then the lengths asked for
        if norms == "lognormal":
            x *= torch.exp(1.5 * torch.randn(N, 1, generator=g, dtype=torch.float64))
    if pairs == "identical" and norms == "lognormal":
        text = image * torch.exp(1.5 * torch.randn(N, 1, generator=g, dtype=torch.float64))  # same directions
    grads = ("image_embeds", "text_embeds", "logit_scale") if dtype == torch.float64 or D >= 4 else ("logit_scale",)
    return Inputs(args={"image_embeds": image.to(dtype), "text_embeds": text.to(dtype),
                        "logit_scale": torch.tensor(scale, dtype=dtype)}, grad_of=grads)


def _case(N, D, **kw):
    return lambda g: _draw(g, N, D, **kw)


def _random(g: torch.Generator) -> Inputs:
    return _draw(g, pick(g, [1, 2, 3, 8, 16, 32]), randint(g, 1, 48),
                 scale=pick(g, [INIT, INIT, 0.0, -1.0, math.log(50), math.log(100), 1.0]),
                 norms=pick(g, ["lognormal", "lognormal", "unit"]), pairs=pick(g, ["random", "aligned", "aligned"]),
                 dtype=pick(g, [torch.float32, torch.float32, torch.float64]))


FAMILIES = (
    Family("one_pair", _case(1, 8)),
    Family("two_pairs", _case(2, 8)),
    Family("batch_8", _case(8, 16)),
    Family("batch_16", _case(16, 32, pairs="aligned")),
    Family("batch_64", _case(64, 48, pairs="aligned")),
    Family("width_1", _case(6, 1)),
    Family("width_1_float64", _case(6, 1, dtype=torch.float64)),
    Family("width_2", _case(6, 2)),
    Family("width_3", _case(6, 3)),
    Family("width_48", _case(8, 48)),
    Family("very_different_lengths", _case(8, 16, norms="lognormal"), draws=2),
    Family("unit_norm_inputs", _case(8, 16, norms="unit")),
    Family("scale_init", _case(8, 16, scale=INIT, pairs="aligned")),
    Family("scale_zero", _case(8, 16, scale=0.0)),
    Family("scale_minus_one", _case(8, 16, scale=-1.0)),
    Family("scale_ln_50", _case(8, 16, scale=math.log(50), pairs="aligned")),
    Family("scale_ln_100", _case(8, 16, scale=math.log(100), pairs="aligned")),
    Family("scale_ln_100_identical", _case(8, 16, scale=math.log(100), pairs="identical")),
    Family("scale_ln_100_float64", _case(8, 16, scale=math.log(100), pairs="aligned", dtype=torch.float64)),
    Family("aligned_pairs", _case(8, 16, pairs="aligned")),
    Family("identical_pairs", _case(8, 16, pairs="identical")),
    Family("float64", _case(8, 16, dtype=torch.float64)),
    Family("float64_one_pair", _case(1, 4, dtype=torch.float64)),
    Family("random", _random, draws=80),
    Family("device", _case(8, 16, pairs="aligned"), track_device=True),
)


def tolerance_for(case, item, dtype, expected):
    """The family's gradient tolerance, its atol grown with the scale in float32: every gradient sums terms of
    size up to exp(logit_scale) / ‖x‖ that cancel (at scale 50 a gradient of 3e-6 is a difference of terms
    near 1), so float32 rounding leaves absolute errors that grow with the scale, not with the result."""
    chosen = _align.tolerance_for(case, item, dtype, expected)
    if chosen is None or dtype != torch.float32:
        return chosen
    rtol, atol = chosen
    return rtol, atol * max(1.0, math.exp(float(case.inputs.args["logit_scale"])) / 4)


# ---------------------------------------------------------------- known mistakes


def _clip(image, text, logit_scale, *, directions="both", exponentiate=True, normalise="rows", softmax="stable",
          reduce="mean", half=True, detach_scale=False, divide=False):
    if normalise == "rows":
        image = image / image.norm(dim=-1, keepdim=True)
        text = text / text.norm(dim=-1, keepdim=True)
    elif normalise == "columns":
        image = image / image.norm(dim=0, keepdim=True)
        text = text / text.norm(dim=0, keepdim=True)
    scale = logit_scale.exp() if exponentiate else logit_scale
    scale = scale.detach() if detach_scale else scale
    sims = image @ text.T
    logits = sims / scale if divide else sims * scale
    N = logits.shape[0]

    def ce(l):
        if softmax == "naive":
            logp = torch.log(torch.exp(l) / torch.exp(l).sum(-1, keepdim=True))
        else:
            logp = torch.log_softmax(l, dim=-1)
        nll = -logp[torch.arange(N), torch.arange(N)]
        return nll.sum() if reduce == "sum" else nll.mean()

    if directions == "image":
        return ce(logits)
    total = ce(logits) + ce(logits.T)
    return total / 2 if half else total


def _variant(**switches):
    def clip_loss(image_embeds, text_embeds, logit_scale):
        return _clip(image_embeds, text_embeds, logit_scale, **switches)
    return clip_loss


MISTAKES = (
    Mistake("one_direction", _variant(directions="image")),
    Mistake("scale_not_exponentiated", _variant(exponentiate=False)),
    Mistake("not_normalised", _variant(normalise="none")),
    Mistake("normalised_over_the_batch", _variant(normalise="columns")),
    Mistake("divided_by_scale", _variant(divide=True)),
    Mistake("naive_softmax", _variant(softmax="naive")),
    Mistake("summed_over_pairs", _variant(reduce="sum")),
    Mistake("no_half", _variant(half=False)),
    Mistake("scale_detached", _variant(detach_scale=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    N, D = 1024, 512
    return Inputs(args={"image_embeds": torch.randn(N, D, generator=g), "text_embeds": torch.randn(N, D, generator=g),
                        "logit_scale": torch.tensor(INIT)}, grad_of=("image_embeds", "text_embeds", "logit_scale"))


# `kata check clip-loss --bench`: a batch of 1024 pairs of 512-dim embeddings, forward and backward.
BENCH = ("N = 1024, D = 512", _bench)
