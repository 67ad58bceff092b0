"""Case families for `reward-model-loss`: a batch, B = 1, equal rewards (d = 0 exactly: loss log 2, the
gradient -1/(2B) that a clamp- or relu-kinked softplus gets wrong), a margin that meets the gap exactly,
chosen far below (-1e4 and -150 in float32, -9000 in float64) and far above (+1e4), float, tensor and
zero margins, a margin of 30 that turns won pairs into lost ones, the centring term (offset rewards, with a
tensor margin in float64, zero, None given explicitly), rewards of 1e4 with a moderate gap, float64, random
draws and three device cases.

Every case compares the loss, `requires_grad of loss` (it must stay in the graph), and the gradients of the
loss w.r.t. chosen_rewards and rejected_rewards (the margin is a constant). The inputs are checked unmodified
on every case, as everywhere.
"""
from __future__ import annotations

import sys

import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _training
from checker.specs._align import call_with_requires_grad
from checker.specs._training import pick, randint, uniform
from checker.text.i18n import tr

NAMES = ("chosen_rewards", "rejected_rewards")
_OMIT = object()


def _draw(g: torch.Generator, B: int, *, gap: object = None, scale: float = 1.0, offset: float = 0.0,
          margin: object = _OMIT, coef: object = _OMIT, dtype: torch.dtype = torch.float32) -> Inputs:
    """Rewards offset + scale·N(0, 1). gap: None (independent sides), "equal" (chosen = rejected exactly),
    a number t (chosen - rejected near t, ±5%), ("mixed", t) (pairs near +t and -t), or "meets" (small
    half-integer rewards whose gap the tensor margin equals exactly: d = 0). margin: _OMIT (left out), None,
    a float, "tensor" (Llama 2's 0…3 per pair) or "exact" (set by gap="meets"); coef: _OMIT, None or a float."""
    rejected = offset + scale * torch.randn(B, generator=g, dtype=torch.float64)
    if gap is None:
        chosen = offset + scale * torch.randn(B, generator=g, dtype=torch.float64)
    elif gap == "equal":
        chosen = rejected.clone()
    elif gap == "meets":
        rejected = torch.randint(-8, 9, (B,), generator=g).double() / 2
        chosen = rejected + torch.randint(0, 7, (B,), generator=g).double() / 2
    else:
        if isinstance(gap, tuple):
            target = gap[1] * torch.where(torch.arange(B) % 2 == 0, 1.0, -1.0).double()
        else:
            target = torch.full((B,), float(gap), dtype=torch.float64)
        target = target * (1 + 0.05 * torch.rand(B, generator=g, dtype=torch.float64))
        middle = offset + scale * torch.randn(B, generator=g, dtype=torch.float64)
        chosen, rejected = middle + target / 2, middle - target / 2
    args: dict = {"chosen_rewards": chosen.to(dtype), "rejected_rewards": rejected.to(dtype)}
    show: dict = {}
    if margin == "tensor":
        args["margin"] = torch.randint(0, 4, (B,), generator=g).to(dtype)
    elif margin == "exact":
        args["margin"] = (chosen - rejected).to(dtype)
    elif margin is not _OMIT:
        args["margin"] = show["margin"] = margin
    if coef is not _OMIT:
        args["center_rewards_coefficient"] = show["center_rewards_coefficient"] = coef
    return Inputs(args=args, grad_of=NAMES, show=show)


def _case(B, **kw):
    return lambda g: _draw(g, B, **kw)


def _random(dtype: torch.dtype):
    def make(g: torch.Generator) -> Inputs:
        B = randint(g, 1, 16)
        scale = pick(g, [1.0, 1.0, 3.0, 10.0, 100.0, 1000.0, round(uniform(g, 1.0, 1000.0), 1)])
        gap = pick(g, [None, None, None, round(uniform(g, -3, 3) * scale, 3), ("mixed", scale)])
        margin = pick(g, [_OMIT, _OMIT, None, round(uniform(g, 0.0, 3.0), 2), "tensor", "tensor"])
        coef = pick(g, [_OMIT, _OMIT, _OMIT, 0.01, round(uniform(g, 0.001, 0.1), 4)])
        offset = pick(g, [0.0, 0.0, round(uniform(g, -2, 2) * scale, 2)])
        return _draw(g, B, gap=gap, scale=scale, offset=offset, margin=margin, coef=coef, dtype=dtype)
    return make


FAMILIES = (
    Family("typical", _case(8)),
    Family("batch_one", _case(1)),
    Family("equal_rewards_log2", _case(8, gap="equal")),
    Family("equal_rewards_log2_one", _case(1, gap="equal")),
    Family("equal_rewards_log2_float64", _case(5, gap="equal", dtype=torch.float64)),
    Family("zero_initialised_head", _case(6, gap="equal", scale=0.0)),
    Family("margin_meets_gap", _case(8, gap="meets", margin="exact")),
    Family("chosen_far_below_1e4", _case(6, gap=-1e4)),
    Family("chosen_far_below_150", _case(6, gap=-150.0)),
    Family("chosen_far_below_9000_float64", _case(6, gap=-9000.0, dtype=torch.float64)),
    Family("chosen_far_above_1e4", _case(6, gap=1e4)),
    Family("far_both_ways", _case(8, gap=("mixed", 200.0))),
    Family("mixed_signs_moderate", _case(8, gap=("mixed", 2.0))),
    Family("float_margin", _case(8, margin=0.5)),
    Family("tensor_margin", _case(8, margin="tensor")),
    Family("tensor_margin_one", _case(1, gap=2.0, margin="tensor")),
    Family("margin_zero", _case(8, margin=0.0)),
    Family("margin_none_given", _case(8, margin=None)),
    Family("margin_30", _case(8, gap=15.0, scale=3.0, margin=30.0)),
    Family("centring", _case(8, coef=0.01)),
    Family("centring_offset_rewards", _case(8, offset=3.0, coef=0.05)),
    Family("centring_tensor_margin_float64", _case(8, offset=-2.0, margin="tensor", coef=0.01, dtype=torch.float64)),
    Family("centring_float_margin", _case(8, offset=1.5, margin=1.0, coef=0.1)),
    Family("centring_zero", _case(8, offset=2.0, coef=0.0)),
    Family("centring_none_given", _case(8, offset=2.0, coef=None)),
    Family("centring_large_rewards", _case(6, scale=300.0, gap=("mixed", 50.0), offset=500.0, coef=0.001)),
    Family("rewards_1e4_moderate_gap", _case(8, gap=("mixed", 3.0), offset=1e4)),
    Family("float64", _case(8, dtype=torch.float64)),
    Family("inputs_unmodified", _case(8, margin="tensor", coef=0.01)),
    Family("random", _random(torch.float32), draws=64),
    Family("random_float64", _random(torch.float64), draws=16),
    Family("device", _case(8), track_device=True),
    Family("device_float_margin", _case(8, margin=0.5), track_device=True),
    Family("device_tensor_margin_centring", _case(8, margin="tensor", coef=0.01), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- how a case runs and is judged

# The default protocol, plus `requires_grad of loss`: a loss cut off the graph trains nothing.
call = call_with_requires_grad("loss")


def _spread(args: dict) -> float:
    """The size of the numbers subtracted on the way to d: a float32 reward of 1e4 carries ~1e-3 into d."""
    sizes = [float(args[n].double().abs().max()) for n in NAMES]
    margin = args.get("margin")
    if isinstance(margin, torch.Tensor):
        sizes.append(float(margin.double().abs().max()))
    elif margin is not None:
        sizes.append(abs(float(margin)))
    return max(sizes)


def tolerance_for(case, item: str, dtype: torch.dtype, expected_data) -> tuple[float, float] | None:
    """The loss at the dtype's rtol and atol × max(1, |loss|); gradients at atol × max(1, max|gradient|); both
    widened by the rounding of d when the rewards are large (another order of the same subtraction)."""
    if not dtype.is_floating_point or expected_data is None or expected_data.numel() == 0:
        return None
    rtol, atol = spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
    spread = _spread(case.inputs.args)
    eps = torch.finfo(dtype).eps
    size = max(1.0, float(expected_data.double().abs().max()))
    if item.startswith("grad of"):  # each entry is -+sigmoid(-d)/B, plus the centring term's 2·coef·(r_c + r_r)/B
        B = case.inputs.args[NAMES[0]].shape[0]
        return rtol, max(atol * size, 8 * eps * (1.0 + spread) / B)
    return rtol, max(atol * size, 4 * eps * spread)


def compare(kata, case, expected, got) -> list[Problem]:
    """The generic comparison; at d = 0 exactly, a wrong gradient is said for what it is: a kink in -log σ."""
    with _training.one_thread():
        problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    if _at_the_tie(case.inputs.args) and any(p.item.startswith("grad of") for p in problems) and \
            not any(p.item == "loss" for p in problems):
        B = case.inputs.args[NAMES[0]].shape[0]
        problems = [Problem("rule", "grad of chosen_rewards", tr(
            "every pair here sits at d = 0, where -log σ(d) has slope -1/2: the gradient on each chosen reward is "
            "-1/(2B) = {want:.4g}. A softplus written as clamp(-d, min=0) + log1p(exp(-|d|)) doubles it and "
            "relu(-d) + … zeroes it (a kink at 0); use F.logsigmoid(d) or F.softplus(-d)", want=-0.5 / B))] + problems
    return problems


def _at_the_tie(args: dict) -> bool:
    d = args["chosen_rewards"].double() - args["rejected_rewards"].double()
    margin = args.get("margin")
    if margin is not None:
        d = d - (margin.double() if isinstance(margin, torch.Tensor) else float(margin))
    return bool((d == 0).all()) and args.get("center_rewards_coefficient") in (None, 0.0)


# ---------------------------------------------------------------- known mistakes


def _variant(*, margin_rule="subtract", swap=False, form="logsigmoid", reduce="mean", center="sum_squared", detach=False):
    """margin_rule: "subtract" (right), "add", "outside" (-log σ(r_c - r_r) - m), "ignored", "scalar" (a tensor margin
    ignored), "float" (float(margin): a tensor of B > 1 raises); swap: rejected - chosen; form: how -log σ(d) is
    computed; center: "sum_squared" (right), "square_of_mean", "difference", "per_side", "every_reward",
    "ignored", "whole"
    (the coefficient times the whole loss)."""
    def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
        rc, rr = chosen_rewards, rejected_rewards
        if detach:
            rc, rr = rc.detach(), rr.detach()
        d = rr - rc if swap else rc - rr
        m = margin
        if m is not None:
            if margin_rule == "subtract":
                d = d - m
            elif margin_rule == "add":
                d = d + m
            elif margin_rule == "scalar" and isinstance(m, (int, float)):
                d = d - m
            elif margin_rule == "float":
                d = d - float(m)
        if form == "log_sigmoid":
            per_pair = -torch.log(torch.sigmoid(d))
        elif form == "bce":
            per_pair = F.binary_cross_entropy(torch.sigmoid(d), torch.ones_like(d), reduction="none")
        elif form == "kinked":  # softplus(-d) through clamp and abs: the gradient at d = 0 doubles
            per_pair = torch.clamp(-d, min=0) + torch.log1p(torch.exp(-torch.abs(d)))
        elif form == "kinked_relu":  # the same through relu: the gradient at d = 0 vanishes
            per_pair = torch.relu(-d) + torch.log1p(torch.exp(-torch.abs(d)))
        elif form == "where":  # both branches computed: the one not taken overflows, its NaN gradient leaks
            per_pair = torch.where(d >= 0, torch.log1p(torch.exp(-d)), -d + torch.log1p(torch.exp(d)))
        elif form == "wrong_sign":
            per_pair = F.softplus(d)
        elif form == "hinge":
            per_pair = torch.relu(1 - d)
        else:
            per_pair = -F.logsigmoid(d)
        if m is not None and margin_rule == "outside":
            per_pair = per_pair - m
        loss = per_pair.sum() if reduce == "sum" else per_pair.mean()
        c = center_rewards_coefficient
        if c is not None:
            if center == "sum_squared":
                loss = loss + c * ((rc + rr) ** 2).mean()
            elif center == "square_of_mean":
                loss = loss + c * (rc + rr).mean() ** 2
            elif center == "difference":
                loss = loss + c * ((rc - rr) ** 2).mean()
            elif center == "per_side":
                loss = loss + c * ((rc ** 2).mean() + (rr ** 2).mean())
            elif center == "every_reward":  # the mean over all 2B rewards: half of per_side
                loss = loss + c * (torch.cat([rc, rr]) ** 2).mean()
            elif center == "whole":
                loss = c * (loss + ((rc + rr) ** 2).mean())
        return loss
    return reward_model_loss


MISTAKES = (
    Mistake("margin_added", _variant(margin_rule="add")),
    Mistake("margin_outside_sigmoid", _variant(margin_rule="outside")),
    Mistake("margin_ignored", _variant(margin_rule="ignored")),
    Mistake("scalar_only_margin", _variant(margin_rule="scalar"), variant="ignored"),
    Mistake("scalar_only_margin", _variant(margin_rule="float"), variant="float"),
    Mistake("chosen_rejected_swapped", _variant(swap=True)),
    Mistake("softplus_wrong_sign", _variant(form="wrong_sign")),
    Mistake("log_of_sigmoid", _variant(form="log_sigmoid")),
    Mistake("bce_on_probabilities", _variant(form="bce")),
    Mistake("kinked_stable_formula", _variant(form="kinked")),
    Mistake("kinked_relu_formula", _variant(form="kinked_relu")),
    Mistake("where_nan_gradient", _variant(form="where")),
    Mistake("hinge_instead", _variant(form="hinge")),
    Mistake("sum_not_mean", _variant(reduce="sum")),
    Mistake("centring_square_of_mean", _variant(center="square_of_mean")),
    Mistake("centring_on_difference", _variant(center="difference")),
    Mistake("centring_per_side", _variant(center="per_side"), variant="sides"),
    Mistake("centring_per_side", _variant(center="every_reward"), variant="every_reward"),
    Mistake("centring_ignored", _variant(center="ignored")),
    Mistake("coefficient_on_whole_loss", _variant(center="whole")),
    Mistake("rewards_detached", _variant(detach=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    return _draw(g, 262144, scale=3.0, margin="tensor", coef=0.01)


# `kata check reward-model-loss --bench`: a large batch of pairs, forward and backward.
BENCH = ("B = 262144 pairs, a tensor margin and the centring term", _bench)
