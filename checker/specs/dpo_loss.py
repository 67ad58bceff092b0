"""Case families for `dpo-loss`: B = 1, policy = reference (z = 0 exactly: the first DPO step),
reward margins of -150 / -1000 (float32) and -9000 (float64) where sigma(z) underflows, +150,
mixed signs, beta of 0.01 and 5, log-probs in the thousands, float64.

Every case compares the loss, both rewards, the gradient of the loss w.r.t. the two policy
log-probs (the reference log-probs are constants), and `chosen_rewards requires_grad` /
`rejected_rewards requires_grad`: the rewards are logged, never trained through.
"""
from __future__ import annotations

import sys

import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _training
from checker.specs._training import pick, randint, uniform

NAMES = ("policy_chosen_logps", "policy_rejected_logps", "ref_chosen_logps", "ref_rejected_logps")
REWARDS = ("chosen_rewards", "rejected_rewards")


def _draw(g: torch.Generator, B: int, *, z: object = None, beta: object = 0.1, dtype: torch.dtype = torch.float32,
          size: tuple[float, float] = (20.0, 400.0), drift: float = 3.0) -> Inputs:
    """Summed log-probs in -size; z: None (policy drifts from the reference by ~drift nats),
    "same" (policy = reference), a number (each row's beta * margin near it, +-5%), or
    ("mixed", m) (rows near +m and -m)."""
    rc = -uniform_tensor(g, B, *size)
    rr = -uniform_tensor(g, B, *size)
    b = 0.1 if beta is None else beta
    if z == "same":
        pc, pr = rc.clone(), rr.clone()
    elif z is None:
        pc = rc + drift * torch.randn(B, generator=g, dtype=torch.float64)
        pr = rr + drift * torch.randn(B, generator=g, dtype=torch.float64)
    else:
        if isinstance(z, tuple):
            target = z[1] * torch.where(torch.arange(B) % 2 == 0, 1.0, -1.0).double()
        else:
            target = torch.full((B,), float(z), dtype=torch.float64)
        target = target * (1 + 0.05 * torch.randn(B, generator=g, dtype=torch.float64))
        d = target / b  # the log-ratio margin each row needs
        shift = 2.0 * torch.randn(B, generator=g, dtype=torch.float64)
        pc, pr = rc + d / 2 + shift, rr - d / 2 + shift
    logps = torch.stack([pc, pr, rc, rr])  # (4, B)
    top = logps.amax(dim=0)  # adding one constant to all four leaves z unchanged
    logps = logps - (top + 1.0).clamp(min=0.0)  # every log-prob <= -1 (a log-prob is <= 0)
    args = {name: t.to(dtype) for name, t in zip(NAMES, logps)}
    show = {}
    if beta is not None:
        args["beta"] = show["beta"] = beta
    return Inputs(args=args, grad_of=NAMES[:2], show=show)


def uniform_tensor(g: torch.Generator, B: int, low: float, high: float) -> torch.Tensor:
    return low + (high - low) * torch.rand(B, generator=g, dtype=torch.float64)


def _case(B, **kw):
    return lambda g: _draw(g, B, **kw)


def _random(dtype: torch.dtype):
    def make(g: torch.Generator) -> Inputs:
        B = randint(g, 1, 32)
        beta = pick(g, [0.1, 0.1, 0.05, 0.5, round(uniform(g, 0.01, 1.0), 3)])
        z = pick(g, [None, None, None, "same", round(uniform(g, -30, 30), 2), ("mixed", 20.0)])
        size = pick(g, [(5.0, 100.0), (20.0, 400.0), (100.0, 2000.0)])
        return _draw(g, B, z=z, beta=beta, dtype=dtype, size=size, drift=pick(g, [0.5, 3.0, 20.0]))
    return make


FAMILIES = (
    Family("typical", _case(8)),
    Family("batch_one", _case(1)),
    Family("default_beta", _case(6, beta=None)),
    Family("policy_equals_reference", _case(8, z="same")),
    Family("policy_equals_reference_one", _case(1, z="same", beta=0.5)),
    Family("policy_equals_reference_float64", _case(4, z="same", dtype=torch.float64)),
    Family("margin_minus_150", _case(6, z=-150.0)),
    Family("margin_minus_1000", _case(6, z=-1000.0)),
    Family("margin_minus_9000_float64", _case(6, z=-9000.0, beta=1.0, dtype=torch.float64)),
    Family("margin_plus_150", _case(6, z=150.0)),
    Family("mixed_signs", _case(8, z=("mixed", 150.0))),
    Family("mixed_signs_moderate", _case(8, z=("mixed", 5.0))),
    Family("beta_small", _case(8, beta=0.01, drift=20.0)),
    Family("beta_large", _case(8, beta=5.0, drift=0.3)),
    Family("large_log_probs", _case(8, size=(1000.0, 5000.0))),
    Family("rewards_detached", _case(8, drift=10.0)),
    Family("float64", _case(8, dtype=torch.float64)),
    Family("random", _random(torch.float32), draws=72),
    Family("random_float64", _random(torch.float64), draws=12),
    Family("device", _case(8), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- hooks


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The default protocol, and whether each reward is still attached to the graph."""
    outcome = spec_api.call(kata, entry, inputs, device, track_device)
    return _training.record_requires_grad(outcome, kata.outputs, REWARDS)


def tolerance_for(case, item: str, dtype: torch.dtype, expected_data) -> tuple[float, float] | None:
    """z and the rewards carry the rounding of beta * log-probs that may be in the thousands."""
    args = case.inputs.args
    beta = args.get("beta", 0.1)
    spread = beta * max(float(args[n].double().abs().max()) for n in NAMES)
    if item.startswith("grad of"):  # each entry is -+beta * sigmoid(-z) / B
        unit = beta / args[NAMES[0]].shape[0]
        return _training.gradient_tolerance(sys.modules[__name__], dtype, unit, spread)
    if dtype.is_floating_point:
        rtol, atol = spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
        return rtol, max(atol, 4 * torch.finfo(dtype).eps * spread)
    return None


def compare(kata, case, expected, got) -> list[Problem]:
    """The generic comparison, with `… requires_grad` said in words."""
    with _training.one_thread():
        problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    broken = {p.item for p in problems}
    said = []
    for p in problems:
        if _training.is_requires_grad_item(p.item):
            name = p.item.removesuffix(_training.REQUIRES_GRAD)
            if name in broken:
                continue  # the item itself is already wrong
            p = Problem("rule", name, tr("{name} still carries autograd history (requires_grad=True): the rewards "
                                         "are for logging, detach them (.detach(), or compute them under "
                                         "torch.no_grad())", name=name))
        said.append(p)
    return said


# ---------------------------------------------------------------- known mistakes


def _variant(*, sign=1.0, beta_outside=False, form="logsigmoid", reference=True, detach=True, reward_beta=True,
             reduce="mean", swap=False, reference_sign=-1.0, beta_on="both"):
    """beta_on: "both", or "chosen" / "rejected": the rewards computed first with beta on one of them
    only, and the loss built from their difference."""
    def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
        margin = policy_chosen_logps - policy_rejected_logps
        if reference:
            margin = margin + reference_sign * (ref_chosen_logps - ref_rejected_logps)
        z = sign * (margin if beta_outside else beta * margin)
        if beta_on != "both":
            w = (beta if beta_on == "chosen" else 1.0) * (policy_chosen_logps - ref_chosen_logps)
            l = (beta if beta_on == "rejected" else 1.0) * (policy_rejected_logps - ref_rejected_logps)
            z = w - l
        if form == "log_sigmoid":
            per_pair = -torch.log(torch.sigmoid(z))
        elif form == "kinked":  # softplus(-z) through clamp and abs: the gradient at z = 0 doubles
            per_pair = torch.clamp(-z, min=0) + torch.log1p(torch.exp(-torch.abs(z)))
        elif form == "kinked_relu":  # the same through relu: the gradient at z = 0 vanishes
            per_pair = torch.relu(-z) + torch.log1p(torch.exp(-torch.abs(z)))
        elif form == "where":  # both branches computed: the one not taken overflows, its NaN gradient leaks
            per_pair = torch.where(z >= 0, torch.log1p(torch.exp(-z)), -z + torch.log1p(torch.exp(z)))
        else:
            per_pair = -F.logsigmoid(z)
        per_pair = beta * per_pair if beta_outside else per_pair
        loss = per_pair.sum() if reduce == "sum" else per_pair.mean()
        scale = beta if reward_beta else 1.0
        chosen = (1.0 if beta_on == "rejected" else scale) * (policy_chosen_logps - ref_chosen_logps)
        rejected = (1.0 if beta_on == "chosen" else scale) * (policy_rejected_logps - ref_rejected_logps)
        if detach:
            chosen, rejected = chosen.detach(), rejected.detach()
        return (loss, rejected, chosen) if swap else (loss, chosen, rejected)
    return dpo_loss


MISTAKES = (
    Mistake("sign_flipped", _variant(sign=-1.0)),
    Mistake("beta_outside_sigmoid", _variant(beta_outside=True)),
    Mistake("log_of_sigmoid", _variant(form="log_sigmoid")),
    Mistake("reference_left_out", _variant(reference=False)),
    Mistake("kinked_stable_formula", _variant(form="kinked")),
    Mistake("kinked_relu_formula", _variant(form="kinked_relu")),
    Mistake("where_nan_gradient", _variant(form="where")),
    Mistake("sum_not_mean", _variant(reduce="sum")),
    Mistake("rewards_without_beta", _variant(reward_beta=False)),
    Mistake("rewards_not_detached", _variant(detach=False)),
    Mistake("rewards_swapped", _variant(swap=True)),
    Mistake("beta_on_chosen_only", _variant(beta_on="chosen")),
    Mistake("beta_on_rejected_only", _variant(beta_on="rejected")),
    Mistake("reference_added", _variant(reference_sign=1.0)),
)


def _bench(g: torch.Generator) -> Inputs:
    return _draw(g, 65536, size=(50.0, 2000.0))


# `kata check dpo-loss --bench`: a large preference batch, forward and backward.
BENCH = ("B = 65536 preference pairs", _bench)
