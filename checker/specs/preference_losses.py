"""Case families for `preference-losses`: each of TRL's five pairwise losses (sigmoid / cDPO, robust, hinge,
ipo, simpo) on a batch and in float64; policy = reference (h = 0 exactly, where a kinked −log σ shows in the
gradient); σ's underflow at |β·h| in the thousands; the hinge inside and past its margin; IPO with and without
lengths and with β 0.1 / 0.01; SimPO with and without lengths, with the reference log-probs given (ignored),
with ε and γ = 0; label smoothing where it is used and where it is ignored; unknown loss types (ValueError).

Every case compares the loss, its gradient w.r.t. the two policy log-probs (the reference log-probs and the
lengths are constants) and whether the loss is in the graph.
"""
from __future__ import annotations

import sys

import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _training
from checker.specs._align import REQUIRES_GRAD, call_with_requires_grad
from checker.specs._training import pick, randint, uniform

NAMES = ("policy_chosen_logps", "policy_rejected_logps", "ref_chosen_logps", "ref_rejected_logps")
TYPES = ("sigmoid", "robust", "hinge", "ipo", "simpo")
_OMIT = object()  # leave the argument out of the call, so its default is used


def _lengths(g: torch.Generator, B: int, kind: object) -> torch.Tensor | None:
    """None, or [B] token counts 1..64 as int64 ("int") or floats ("float", cast to the log-probs' dtype later)."""
    if kind is None:
        return None
    if isinstance(kind, tuple):
        return torch.tensor(kind, dtype=torch.int64)
    return torch.randint(1, 65, (B,), generator=g)


def _draw(g: torch.Generator, B: int, loss_type: object = "sigmoid", *, m: object = None, beta: object = _OMIT,
          eps: object = _OMIT, gamma: object = _OMIT, lengths: object = None, refs: bool = True,
          dtype: torch.dtype = torch.float32, drift: float = 3.0) -> Inputs:
    """m, the margin in the loss's own units: None (the policy drifts from the reference), "same" (policy =
    reference), a number (each row near it, +-5%), ("mixed", v) (rows near +v and -v), ("around", c, w) (rows in
    c +- w). The units: beta * h for sigmoid / robust / hinge, h_ipo for ipo, beta * h_s - gamma for simpo."""
    kind = "sigmoid" if loss_type is _OMIT or loss_type not in TYPES else loss_type
    b = 0.1 if beta is _OMIT else beta
    gm = 0.5 if gamma is _OMIT else gamma
    L_c, L_r = _lengths(g, B, lengths), _lengths(g, B, lengths)
    # what the margin divides by: ipo and simpo per token when lengths are given, the others never
    per_token = kind in ("ipo", "simpo") and L_c is not None
    lc = L_c.double() if per_token else torch.ones(B, dtype=torch.float64)
    lr = L_r.double() if per_token else torch.ones(B, dtype=torch.float64)
    scale = torch.sqrt(lc)  # a log-prob sum of L tokens drifts like sqrt(L)
    if m is None or m == "same":
        target = None
    elif isinstance(m, tuple) and m[0] == "mixed":
        target = m[1] * torch.where(torch.arange(B) % 2 == 0, 1.0, -1.0).double()
        target = target * (1 + 0.05 * torch.randn(B, generator=g, dtype=torch.float64))
    elif isinstance(m, tuple) and m[0] == "around":
        target = m[1] + m[2] * (2 * torch.rand(B, generator=g, dtype=torch.float64) - 1)
    else:
        target = float(m) * (1 + 0.05 * torch.randn(B, generator=g, dtype=torch.float64))
    if kind == "simpo":
        u_c = 0.2 + 2.8 * torch.rand(B, generator=g, dtype=torch.float64)  # average -log-prob per token
        if target is None:
            u_r = 0.2 + 2.8 * torch.rand(B, generator=g, dtype=torch.float64)
        else:
            diff = (target + gm) / b  # = u_r - u_c
            u_c = u_c + (-diff).clamp(min=0)
            u_r = u_c + diff
        pc, pr = -u_c * lc, -u_r * lr
        rc = pc + drift * scale * torch.randn(B, generator=g, dtype=torch.float64) - 1.0
        rr = pr + drift * scale * torch.randn(B, generator=g, dtype=torch.float64) - 1.0
        logps = torch.stack([pc, pr, rc.clamp(max=-0.5), rr.clamp(max=-0.5)])
    else:
        rc = -(5.0 + 395.0 * torch.rand(B, generator=g, dtype=torch.float64)) * torch.sqrt(lc)
        rr = -(5.0 + 395.0 * torch.rand(B, generator=g, dtype=torch.float64)) * torch.sqrt(lr)
        if m == "same":
            a, r = torch.zeros(B, dtype=torch.float64), torch.zeros(B, dtype=torch.float64)
        elif target is None:
            a = drift * scale * torch.randn(B, generator=g, dtype=torch.float64)
            r = drift * torch.sqrt(lr) * torch.randn(B, generator=g, dtype=torch.float64)
        else:
            d = target if kind == "ipo" else target / b  # the per-token (or summed) log-ratio margin each row needs
            shift = 2.0 * torch.randn(B, generator=g, dtype=torch.float64)
            a, r = (d / 2 + shift) * lc, (-d / 2 + shift) * lr
        pc, pr = rc + a, rr + r
        logps = torch.stack([pc, pr, rc, rr])  # (4, B)
        top = torch.maximum(logps[0::2].amax(dim=0), logps[1::2].amax(dim=0))
        logps = logps - (top + 1.0).clamp(min=0.0)  # every log-prob <= -1; each log-ratio unchanged
    if kind == "hinge":
        logps = _off_the_kink(logps, b, dtype)
    args = {name: t.to(dtype) for name, t in zip(NAMES, logps)}
    show: dict = {}
    if not refs:
        del args[NAMES[2]], args[NAMES[3]]
    if loss_type is not _OMIT:
        args["loss_type"] = show["loss_type"] = loss_type
    for name, value in (("beta", beta), ("label_smoothing", eps), ("simpo_gamma", gamma)):
        if value is not _OMIT:
            args[name] = show[name] = value
    if L_c is not None:
        as_float = lengths == "float"
        args["chosen_lengths"] = L_c.to(dtype) if as_float else L_c
        args["rejected_lengths"] = L_r.to(dtype) if as_float else L_r
    return Inputs(args=args, grad_of=NAMES[:2], show=show)


def _off_the_kink(logps: torch.Tensor, beta: float, dtype: torch.dtype) -> torch.Tensor:
    """No row within 1e-3 of the hinge's kink beta * h = 1 (as the case's dtype rounds it): such rows move by 0.02."""
    rounded = logps.to(dtype).double()
    x = beta * ((rounded[0] - rounded[2]) - (rounded[1] - rounded[3]))
    near = (x - 1).abs() < 2e-3
    return torch.stack([rounded[0] - near.double() * 0.02 / beta, *rounded[1:]])


def _case(B, loss_type="sigmoid", **kw):
    return lambda g: _draw(g, B, loss_type, **kw)


def _unknown(loss_type: str):
    def make(g: torch.Generator) -> Inputs:
        inputs = _draw(g, 3, "sigmoid")
        args = {**inputs.args, "loss_type": loss_type}
        return Inputs(args=args, raises="ValueError", show={"loss_type": loss_type})
    return make


def _random(dtype: torch.dtype):
    def make(g: torch.Generator) -> Inputs:
        loss_type = pick(g, list(TYPES))
        B = randint(g, 1, 16)
        beta = pick(g, [0.1, 0.1, 0.05, 0.5, 2.0, round(uniform(g, 0.01, 1.0), 3)])
        eps = pick(g, [_OMIT, 0.0, 0.1, 0.2, 0.3])
        gamma = pick(g, [_OMIT, 0.0, 1.0, 1.6]) if loss_type == "simpo" else _OMIT
        lengths = pick(g, [None, "int", "float"] if loss_type in ("ipo", "simpo") else [None, None, "int"])
        if loss_type == "ipo":
            m = pick(g, [None, None, "same", ("around", 1 / (2 * beta), 3.0)])
        elif loss_type == "simpo":
            m = pick(g, [None, None, round(uniform(g, -8, 8), 2)])
        else:
            m = pick(g, [None, None, "same", round(uniform(g, -30, 30), 2), ("mixed", 8.0)])
        refs = pick(g, [True, False]) if loss_type == "simpo" else True
        return _draw(g, B, loss_type, m=m, beta=beta, eps=eps, gamma=gamma, lengths=lengths, refs=refs, dtype=dtype,
                     drift=pick(g, [0.5, 3.0, 20.0]))
    return make


F64 = torch.float64

# sigmoid: DPO, and cDPO for eps > 0
SIGMOID = (
    Family("sigmoid_batch", _case(8, "sigmoid")),
    Family("sigmoid_float64", _case(8, "sigmoid", eps=0.1, dtype=F64)),
    Family("sigmoid_default_loss_type", _case(6, _OMIT)),
    Family("sigmoid_first_step", _case(6, "sigmoid", m="same")),
    Family("sigmoid_policy_equals_reference_cdpo", _case(6, "sigmoid", m="same", eps=0.1, beta=0.5)),
    Family("sigmoid_cdpo", _case(8, "sigmoid", eps=0.1, drift=20.0)),
    Family("sigmoid_margin_minus_1e4", _case(6, "sigmoid", m=-1e4, beta=1.0, eps=0.1)),
    Family("sigmoid_lengths_ignored", _case(6, "sigmoid", lengths="int", eps=0.2)),
    Family("sigmoid_batch_one", _case(1, "sigmoid", eps=0.3, beta=0.5)),
    Family("sigmoid_beta_5_eps", _case(8, "sigmoid", beta=5.0, eps=0.2, drift=0.3)),
)
# robust: rDPO, the flipped term subtracted and the sum rescaled
ROBUST = (
    Family("robust_batch", _case(8, "robust", eps=0.1, drift=10.0)),
    Family("robust_float64", _case(8, "robust", eps=0.2, drift=10.0, dtype=F64)),
    Family("robust_eps_0_4", _case(8, "robust", eps=0.4, drift=10.0)),
    Family("robust_eps_0", _case(8, "robust", eps=0.0, drift=10.0)),
    Family("robust_policy_equals_reference", _case(6, "robust", m="same", eps=0.1)),
    Family("robust_plus_3000", _case(6, "robust", m=3000.0, beta=1.0, eps=0.1)),
    Family("robust_minus_9000_float64", _case(6, "robust", m=-9000.0, beta=1.0, eps=0.3, dtype=F64)),
    Family("robust_beta_5_eps", _case(8, "robust", beta=5.0, eps=0.25, drift=0.3)),
)
# hinge: SLiC
HINGE = (
    Family("hinge_batch", _case(8, "hinge")),
    Family("hinge_float64", _case(8, "hinge", dtype=F64, drift=10.0)),
    Family("hinge_inside_margin", _case(8, "hinge", m=("around", 0.2, 0.7))),
    Family("hinge_past_margin", _case(6, "hinge", m=("around", 3.0, 1.0))),
    Family("hinge_both_sides", _case(8, "hinge", m=("around", 1.0, 2.0), beta=0.5)),
    Family("hinge_policy_equals_reference", _case(6, "hinge", m="same")),
    Family("hinge_eps_ignored", _case(8, "hinge", eps=0.2, drift=10.0)),
)
# ipo: a squared loss around 1 / (2 beta)
IPO = (
    Family("ipo_lengths", _case(8, "ipo", lengths="int", m=("around", 5.0, 3.0))),
    Family("ipo_batch", _case(8, "ipo", m=("around", 5.0, 4.0))),
    Family("ipo_float64", _case(8, "ipo", m=("around", 5.0, 4.0), dtype=F64)),
    Family("ipo_beta_0_01", _case(8, "ipo", beta=0.01, m=("around", 50.0, 20.0))),
    Family("ipo_policy_equals_reference", _case(6, "ipo", m="same", lengths="int")),
    Family("ipo_lengths_float64", _case(8, "ipo", lengths="float", m=("around", 5.0, 3.0), dtype=F64)),
    Family("ipo_lengths_beta_0_01", _case(6, "ipo", lengths="int", beta=0.01, m=("around", 50.0, 10.0))),
    Family("ipo_eps_ignored", _case(8, "ipo", lengths="int", eps=0.2, m=("around", 5.0, 3.0))),
    Family("ipo_batch_one", _case(1, "ipo", lengths=(7,), beta=0.5)),
)
# simpo: reference-free, average log-likelihoods, margin gamma
SIMPO = (
    Family("simpo_lengths", _case(8, "simpo", refs=False, lengths="int", beta=2.0, gamma=1.0)),
    Family("simpo_defaults", _case(8, "simpo", refs=False, lengths="int")),
    Family("simpo_no_lengths", _case(8, "simpo", refs=False, beta=2.0, gamma=1.6)),
    Family("simpo_reference_ignored", _case(8, "simpo", lengths="int", beta=2.0, gamma=1.0)),
    Family("simpo_eps", _case(8, "simpo", refs=False, lengths="int", beta=2.0, gamma=1.0, eps=0.1)),
    Family("simpo_gamma_0", _case(8, "simpo", refs=False, lengths="int", beta=2.0, gamma=0.0)),
    Family("simpo_float64", _case(8, "simpo", refs=False, lengths="float", beta=2.5, gamma=1.4, eps=0.2, dtype=F64)),
    Family("simpo_beta_5_eps", _case(8, "simpo", refs=False, lengths="int", beta=5.0, gamma=0.3, eps=0.2)),
    Family("simpo_batch_one", _case(1, "simpo", refs=False, lengths=(12,), beta=2.0, gamma=1.0)),
)


def _interleaved(*groups: tuple[Family, ...]) -> tuple[Family, ...]:
    """One family of each loss type in turn: the namer examines the first failing family of each kind, so a file
    with two slips in two types shows both among the cases it examines."""
    out = []
    for i in range(max(len(g) for g in groups)):
        out += [g[i] for g in groups if i < len(g)]
    return tuple(out)


FAMILIES = (
    *_interleaved(SIGMOID, ROBUST, HINGE, IPO, SIMPO),
    # unknown loss types
    Family("unknown_loss_type_dpo", _unknown("dpo")),
    Family("unknown_loss_type_capitals", _unknown("IPO")),
    Family("unknown_loss_type_sigmoid_norm", _unknown("sigmoid_norm")),
    Family("unknown_loss_type_kto_pair", _unknown("kto_pair")),
    Family("inputs_unmodified", _case(8, "ipo", lengths="float", m=("around", 5.0, 3.0))),
    Family("random", _random(torch.float32), draws=48),
    Family("random_float64", _random(F64), draws=12),
    Family("device_defaults", _case(6, _OMIT), track_device=True),
    Family("device_robust", _case(6, "robust", eps=0.1, beta=0.5), track_device=True),
    Family("device_hinge", _case(6, "hinge", beta=0.5), track_device=True),
    Family("device_ipo_lengths", _case(6, "ipo", lengths="int"), track_device=True),
    Family("device_ipo_float_lengths", _case(6, "ipo", lengths="float", dtype=F64), track_device=True),
    Family("device_simpo", _case(6, "simpo", refs=False, lengths="int", beta=2.0, eps=0.1), track_device=True),
    Family("device_simpo_no_lengths", _case(6, "simpo", refs=False, beta=2.0, gamma=1.0), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- hooks

_call = call_with_requires_grad("loss")


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The default protocol, the loss's requires_grad as an item, and a None gradient counted as zeros."""
    outcome = _call(kata, entry, inputs, device, track_device)
    if inputs.raises is None and outcome.extras.get(REQUIRES_GRAD.format(name="loss")):
        for name in inputs.grad_of:
            key = f"grad of {name}"
            if key in outcome.extras and outcome.extras[key] is None:
                outcome.extras[key] = torch.zeros_like(outcome.args[name])
    return outcome


_ROUNDING: dict[int, tuple] = {}  # id(case) -> (case, figures): the three items of a case ask for the same figures


def _rounding_of(case) -> tuple[float, float, float]:
    hit = _ROUNDING.get(id(case))
    if hit is None or hit[0] is not case:
        if len(_ROUNDING) > 512:
            _ROUNDING.clear()
        hit = _ROUNDING[id(case)] = (case, _rounding(case.inputs.args))
    return hit[1]


def _rounding(args: dict) -> tuple[float, float, float]:
    """(err, slope, curve): how far rounding moves the loss's margin (err, in its own units before beta), how
    fast the per-pair loss moves with it (slope), and how fast its derivative does (curve, per pair)."""
    kind = args.get("loss_type", "sigmoid")
    dtype = args[NAMES[0]].dtype
    beta, eps = args.get("beta", 0.1), args.get("label_smoothing", 0.0)
    per_token = kind in ("ipo", "simpo") and "chosen_lengths" in args
    lc = args["chosen_lengths"].double() if per_token else 1.0
    lr = args["rejected_lengths"].double() if per_token else 1.0
    pc, pr = args[NAMES[0]].double().abs(), args[NAMES[1]].double().abs()
    if kind == "simpo":
        size = pc / lc + pr / lr
    else:
        size = (pc + args[NAMES[2]].double().abs()) / lc + (pr + args[NAMES[3]].double().abs()) / lr
    err = 4 * torch.finfo(dtype).eps * float(size.max()) if dtype.is_floating_point else 0.0
    inv = 1.0 / float(torch.as_tensor(lc).min()) if per_token else 1.0
    if kind == "ipo":
        h = (args[NAMES[0]].double() - args[NAMES[2]].double()) / lc - (args[NAMES[1]].double() - args[NAMES[3]].double()) / lr
        return err, 2 * (float((h - 1 / (2 * beta)).abs().max()) + err), 2.0 * inv
    rescale = 1 / (1 - 2 * eps) if kind == "robust" else 1.0
    curve = 0.0 if kind == "hinge" else 0.25 * beta * beta * rescale * inv
    return err, beta * rescale, curve


def tolerance_for(case, item: str, dtype: torch.dtype, expected_data) -> tuple[float, float] | None:
    """The loss with the dtype's rtol and atol x max(1, |loss|), gradients with atol x max(1, max|gradient|),
    each widened by what rounding the log-probs (up to thousands) does to the margin."""
    if not dtype.is_floating_point or expected_data is None or case.inputs.raises is not None:
        return None
    rtol, atol = spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
    size = float(expected_data.double().abs().max()) if expected_data.numel() else 0.0
    args = case.inputs.args
    err, slope, curve = _rounding_of(case)
    if item.startswith("grad of"):
        return rtol, max(atol * max(1.0, size), 2 * curve * err / args[NAMES[0]].shape[0])
    return rtol, max(atol * max(1.0, size), 2 * slope * err)


def compare(kata, case, expected, got):
    with _training.one_thread():
        return compare_outcome(kata, sys.modules[__name__], case, expected[0], got)


# ---------------------------------------------------------------- known mistakes


def _variant(*, nls="logsigmoid", reduce="mean", robust="right", cdpo="right", eps_used=("sigmoid", "simpo"),
             hinge="right", ipo="right", lengths="right", simpo="right", unknown="raise"):
    """One switch per slip. lengths: "right", "ignored" (ipo and simpo), "ipo_ignored", "simpo_ignored",
    "everywhere" (also the sigmoid / robust / hinge margins divided by them)."""
    def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                        loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                        chosen_lengths=None, rejected_lengths=None):
        def neg_log_sigmoid(x):
            if nls == "log_sigmoid":
                return -torch.log(torch.sigmoid(x))
            if nls == "clamp":  # softplus(-x) through clamp and abs: the gradient at x = 0 doubles
                return torch.clamp(-x, min=0) + torch.log1p(torch.exp(-torch.abs(x)))
            if nls == "relu":  # the same through relu: the gradient at x = 0 vanishes
                return torch.relu(-x) + torch.log1p(torch.exp(-torch.abs(x)))
            return -F.logsigmoid(x)

        if loss_type not in TYPES:
            if unknown == "raise":
                raise ValueError(loss_type)
            loss_type = "sigmoid"
        eps = label_smoothing if loss_type in eps_used or loss_type == "robust" else 0.0
        divide = {"right": ("ipo", "simpo"), "ignored": (), "ipo_ignored": ("simpo",), "simpo_ignored": ("ipo",),
                  "everywhere": TYPES}[lengths]
        L_c = chosen_lengths if chosen_lengths is not None and loss_type in divide else 1
        L_r = rejected_lengths if rejected_lengths is not None and loss_type in divide else 1
        pc, pr = policy_chosen_logps, policy_rejected_logps
        if loss_type == "simpo":
            if simpo == "reference" and ref_chosen_logps is not None:
                pc, pr = pc - ref_chosen_logps, pr - ref_rejected_logps
            h = pc / L_c - pr / L_r
            x = {"right": beta * h - simpo_gamma, "reference": beta * h - simpo_gamma,
                 "gamma_times_beta": beta * (h - simpo_gamma), "gamma_added": beta * h + simpo_gamma}[simpo]
            losses = (1 - eps) * neg_log_sigmoid(x) + eps * neg_log_sigmoid(-x)
        elif loss_type == "ipo":
            h = (pc - ref_chosen_logps) / L_c - (pr - ref_rejected_logps) / L_r
            if ipo == "target_one_over_beta":
                losses = (h - 1 / beta) ** 2
            elif ipo == "beta_inside":
                losses = (beta * h - 1 / (2 * beta)) ** 2
            elif ipo == "beta_inside_half":
                losses = (beta * h - 0.5) ** 2
            elif ipo == "not_squared":
                losses = (h - 1 / (2 * beta)).abs()
            else:
                losses = (h - 1 / (2 * beta)) ** 2
        else:
            x = beta * ((pc - ref_chosen_logps) / L_c - (pr - ref_rejected_logps) / L_r)
            if loss_type == "hinge":
                if hinge == "without_beta":
                    losses = torch.relu(1 - x / beta)
                elif hinge == "sign_flipped":
                    losses = torch.relu(1 + x)
                elif hinge == "without_margin":
                    losses = torch.relu(-x)
                elif hinge == "smoothed":
                    losses = (1 - label_smoothing) * torch.relu(1 - x) + label_smoothing * torch.relu(1 + x)
                else:
                    losses = torch.relu(1 - x)
            elif loss_type == "robust":
                if robust == "as_cdpo":
                    losses = (1 - eps) * neg_log_sigmoid(x) + eps * neg_log_sigmoid(-x)
                else:
                    sign = 1.0 if robust == "flipped_added" else -1.0
                    losses = (1 - eps) * neg_log_sigmoid(x) + sign * eps * neg_log_sigmoid(-x)
                    if robust != "no_rescale":
                        losses = losses / (1 - 2 * eps)
            elif cdpo == "wrong_term":
                losses = eps * neg_log_sigmoid(x) + (1 - eps) * neg_log_sigmoid(-x)
            elif cdpo == "subtracted":
                losses = (1 - eps) * neg_log_sigmoid(x) - eps * neg_log_sigmoid(-x)
            else:
                losses = (1 - eps) * neg_log_sigmoid(x) + eps * neg_log_sigmoid(-x)
        return losses.sum() if reduce == "sum" else losses.mean()
    return preference_loss


MISTAKES = (
    Mistake("log_of_sigmoid", _variant(nls="log_sigmoid")),
    Mistake("kinked_stable_formula", _variant(nls="clamp")),
    Mistake("kinked_relu_formula", _variant(nls="relu")),
    Mistake("sum_not_mean", _variant(reduce="sum")),
    Mistake("robust_flipped_term_added", _variant(robust="flipped_added")),
    Mistake("robust_without_rescale", _variant(robust="no_rescale")),
    Mistake("robust_as_cdpo", _variant(robust="as_cdpo")),
    Mistake("cdpo_eps_on_wrong_term", _variant(cdpo="wrong_term")),
    Mistake("cdpo_flipped_term_subtracted", _variant(cdpo="subtracted")),
    Mistake("eps_ignored", _variant(eps_used=()), variant="both"),
    Mistake("eps_ignored", _variant(eps_used=("simpo",)), variant="sigmoid"),
    Mistake("eps_ignored", _variant(eps_used=("sigmoid",)), variant="simpo"),
    Mistake("hinge_without_beta", _variant(hinge="without_beta")),
    Mistake("hinge_sign_flipped", _variant(hinge="sign_flipped")),
    Mistake("hinge_without_margin", _variant(hinge="without_margin")),
    Mistake("hinge_smoothed", _variant(hinge="smoothed")),
    Mistake("ipo_target_one_over_beta", _variant(ipo="target_one_over_beta")),
    Mistake("ipo_beta_inside", _variant(ipo="beta_inside"), variant="target"),
    Mistake("ipo_beta_inside", _variant(ipo="beta_inside_half"), variant="half"),
    Mistake("ipo_not_squared", _variant(ipo="not_squared")),
    Mistake("ipo_lengths_ignored", _variant(lengths="ipo_ignored")),
    Mistake("simpo_lengths_ignored", _variant(lengths="simpo_ignored")),
    Mistake("lengths_ignored", _variant(lengths="ignored")),
    Mistake("lengths_applied_everywhere", _variant(lengths="everywhere")),
    Mistake("simpo_gamma_times_beta", _variant(simpo="gamma_times_beta")),
    Mistake("simpo_gamma_added", _variant(simpo="gamma_added")),
    Mistake("simpo_with_reference", _variant(simpo="reference")),
    Mistake("unknown_type_accepted", _variant(unknown="sigmoid")),
)


def _bench(g: torch.Generator) -> Inputs:
    return _draw(g, 65536, "ipo", lengths="int")


# `kata check preference-losses --bench`: a large preference batch, forward and backward.
BENCH = ("B = 65536 preference pairs (ipo, per-token)", _bench)
