"""preference-losses' own rules (shared/KATAS-training-2.md, decision 13): the values and gradients at h = 0 that the
kink cases rest on, robust DPO's unbiasedness and cDPO's finite optimum (why their signs differ), lengths None as
the summed form, reference-free SimPO, stability at |beta h| = 1e4, ValueError for unknown types, the case families
the contract lists, no hinge case near its kink, and the tolerance against float64 truth. Calls the reference and
the spec directly (the all-kata tests run the corpus and drills through the checker).
"""
from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.worker import load_entry
from checker.specs import preference_losses as spec
from checker.text import catalog

F64 = torch.float64


@pytest.fixture(scope="module")
def ref():
    kata = catalog.get("preference-losses")
    return load_entry(kata.reference_path, kata.entry, "specs_preference_losses")


def _grads(ref, pc, pr, *refs, **kw):
    pc, pr = pc.clone().requires_grad_(True), pr.clone().requires_grad_(True)
    loss = ref(pc, pr, *refs, **kw)
    loss.backward()
    return loss.detach(), pc.grad, pr.grad


def _at_tie(B=4):
    rc = -torch.arange(1.0, B + 1, dtype=F64) * 10
    rr = rc - 3.0
    return rc.clone(), rr.clone(), rc, rr  # policy = reference: h = 0 exactly


@pytest.mark.parametrize("loss_type,eps,loss,grad", [
    ("sigmoid", 0.0, math.log(2), -0.5),  # the first DPO step
    ("sigmoid", 0.1, math.log(2), -0.5 * (1 - 2 * 0.1)),  # cDPO pulls less
    ("robust", 0.1, math.log(2), -0.5 / (1 - 2 * 0.1)),  # rDPO pulls more, whatever eps
    ("robust", 0.4, math.log(2), -0.5 / (1 - 2 * 0.4)),
    ("hinge", 0.0, 1.0, -1.0),
])
def test_value_and_gradient_at_the_tie(ref, loss_type, eps, loss, grad):
    B, beta = 4, 0.5
    got, gc, gr = _grads(ref, *_at_tie(B), loss_type=loss_type, beta=beta, label_smoothing=eps)
    assert float(got) == pytest.approx(loss, rel=1e-15)
    torch.testing.assert_close(gc, torch.full((B,), grad * beta / B, dtype=F64), rtol=1e-14, atol=0)
    torch.testing.assert_close(gr, -gc, rtol=0, atol=0)


def test_ipo_at_the_tie_regresses_onto_one_over_two_beta(ref):
    B, beta = 3, 0.1
    pc, pr, rc, rr = _at_tie(B)
    lengths = torch.tensor([2, 5, 9])
    got, gc, _ = _grads(ref, pc, pr, rc, rr, loss_type="ipo", beta=beta, chosen_lengths=lengths, rejected_lengths=lengths)
    assert float(got) == pytest.approx((1 / (2 * beta)) ** 2, rel=1e-15)
    torch.testing.assert_close(gc, 2 * (-1 / (2 * beta)) / (B * lengths.double()), rtol=1e-14, atol=0)


def test_the_kinked_forms_differ_from_the_reference_only_at_the_tie():
    """The kink cases are the only evidence: at h = 0 the clamp doubles the gradient and the relu zeroes it."""
    x = torch.tensor([0.0, 0.3, -2.0], dtype=F64, requires_grad=True)
    for form, at_zero in (("clamp", -1.0), ("relu", 0.0)):
        y = spec._variant(nls=form)(x, torch.zeros(3, dtype=F64), torch.zeros(3, dtype=F64), torch.zeros(3, dtype=F64),
                                    beta=1.0)
        (g,) = torch.autograd.grad(y * 3, x)
        assert float(g[0]) == at_zero
        torch.testing.assert_close(g[1:], -torch.sigmoid(-x[1:].detach()), rtol=1e-14, atol=0)


def test_robust_is_unbiased_and_cdpo_is_smoothed():
    """Over a label flipped with probability eps, rDPO's expectation is the clean loss nls(x); cDPO's optimum is the
    finite margin where sigmoid(x) = 1 - eps. These are the two readings of eps whose signs the kata practises."""
    x = torch.linspace(-8, 8, 33, dtype=F64)
    nls = lambda t: -F.logsigmoid(t)  # noqa: E731
    for eps in (0.05, 0.2, 0.45):
        robust = ((1 - eps) * nls(x) - eps * nls(-x)) / (1 - 2 * eps)
        robust_flipped = ((1 - eps) * nls(-x) - eps * nls(x)) / (1 - 2 * eps)
        torch.testing.assert_close((1 - eps) * robust + eps * robust_flipped, nls(x), rtol=1e-12, atol=1e-12)
        z = torch.tensor(math.log((1 - eps) / eps), dtype=F64, requires_grad=True)
        (g,) = torch.autograd.grad((1 - eps) * nls(z) + eps * nls(-z), z)
        assert abs(float(g)) < 1e-15


def test_lengths_none_is_the_summed_form_and_simpo_ignores_the_reference(ref):
    g = torch.Generator().manual_seed(3)
    pc, pr, rc, rr = (-10 * torch.rand(5, generator=g, dtype=F64) for _ in range(4))
    ones = torch.ones(5, dtype=torch.int64)
    for loss_type in spec.TYPES:
        a = ref(pc, pr, rc, rr, loss_type=loss_type, beta=0.3, label_smoothing=0.1)
        b = ref(pc, pr, rc, rr, loss_type=loss_type, beta=0.3, label_smoothing=0.1, chosen_lengths=ones, rejected_lengths=ones)
        assert torch.equal(a, b), loss_type
    L_c, L_r = torch.tensor([1, 2, 3, 4, 5]), torch.tensor([6, 2, 9, 1, 3])
    with_lengths = ref(pc, pr, rc, rr, loss_type="simpo", beta=2.0, simpo_gamma=1.6, chosen_lengths=L_c, rejected_lengths=L_r)
    on_averages = ref(pc / L_c, pr / L_r, loss_type="simpo", beta=2.0, simpo_gamma=1.6)
    torch.testing.assert_close(with_lengths, on_averages, rtol=1e-15, atol=0)
    # TRL's layout: gamma / beta subtracted inside, beta multiplied outside
    x = 2.0 * ((pc / L_c - pr / L_r) - 1.6 / 2.0)
    torch.testing.assert_close(with_lengths, (-F.logsigmoid(x)).mean(), rtol=1e-14, atol=0)


@pytest.mark.parametrize("loss_type", spec.TYPES)
def test_stable_for_a_margin_of_1e4_in_float32(ref, loss_type):
    pc = torch.tensor([-1.0, -20001.0], dtype=torch.float32)
    pr = torch.tensor([-20001.0, -1.0], dtype=torch.float32)
    rc = rr = torch.full((2,), -5.0, dtype=torch.float32)
    loss, gc, gr = _grads(ref, pc, pr, rc, rr, loss_type=loss_type, beta=0.5, label_smoothing=0.1)
    assert loss.dtype == torch.float32 and torch.isfinite(loss) and torch.isfinite(gc).all() and torch.isfinite(gr).all()
    bad = spec._variant(nls="log_sigmoid")(pc, pr, rc, rr, loss_type=loss_type, beta=0.5, label_smoothing=0.1)
    assert bool(torch.isfinite(bad)) == (loss_type not in ("sigmoid", "robust", "simpo"))  # inf, or inf - inf


@pytest.mark.parametrize("loss_type", ["dpo", "IPO", "", None, "sigmoid_norm"])
def test_unknown_loss_types_raise_value_error(ref, loss_type):
    x = torch.full((2,), -3.0)
    with pytest.raises(ValueError):
        ref(x, x, x, x, loss_type=loss_type)


CONTRACT_FAMILIES = (
    "sigmoid_batch", "robust_batch", "hinge_batch", "ipo_batch", "simpo_lengths", "sigmoid_float64", "robust_float64",
    "hinge_float64", "ipo_float64", "simpo_float64", "sigmoid_first_step", "robust_policy_equals_reference",
    "hinge_policy_equals_reference", "ipo_policy_equals_reference", "sigmoid_default_loss_type", "sigmoid_cdpo",
    "sigmoid_margin_minus_1e4", "robust_eps_0_4", "robust_eps_0", "robust_plus_3000", "robust_minus_9000_float64",
    "hinge_inside_margin", "hinge_past_margin", "hinge_both_sides", "hinge_eps_ignored", "ipo_beta_0_01", "ipo_lengths",
    "ipo_lengths_float64", "ipo_eps_ignored", "simpo_defaults", "simpo_no_lengths", "simpo_reference_ignored",
    "simpo_eps", "simpo_gamma_0", "sigmoid_batch_one", "sigmoid_beta_5_eps", "unknown_loss_type_dpo",
    "inputs_unmodified", "random", "device_defaults",
)


def test_every_listed_family_is_a_named_case_and_there_are_enough():
    names = {f.name for f in spec.FAMILIES}
    assert not set(CONTRACT_FAMILIES) - names, set(CONTRACT_FAMILIES) - names
    assert len(spec_api.case_names(spec)) >= 100
    assert len({m.key for m in spec.MISTAKES}) >= 8


def _cases(seeds):
    return [c for s in seeds for c in spec_api.build_cases(spec, s) if c.inputs.raises is None]


def test_no_hinge_case_sits_near_the_kink_and_every_log_prob_is_at_most_zero():
    for case in _cases(range(1, 5)):
        a = case.inputs.args
        assert all(float(a[n].max()) <= 0 for n in spec.NAMES if n in a), case.name
        if a.get("loss_type") == "hinge":
            x = a.get("beta", 0.1) * ((a[spec.NAMES[0]].double() - a[spec.NAMES[2]].double())
                                      - (a[spec.NAMES[1]].double() - a[spec.NAMES[3]].double()))
            assert float((x - 1).abs().min()) >= 1e-3, case.name


def test_float32_answers_sit_inside_the_tolerance_of_float64_truth(ref):
    """The reference in float32 against itself in float64 on the same rounded inputs, loss and gradients, well inside
    the tolerance a case allows (a right answer computed in another order must pass)."""
    worst = 0.0
    for case in _cases((1, 2)):
        a = case.inputs.args
        if a[spec.NAMES[0]].dtype != torch.float32:
            continue
        up = {k: (v.double() if isinstance(v, torch.Tensor) and v.is_floating_point() else v) for k, v in a.items()}
        names = spec.NAMES[:2]
        got = _grads(ref, *(a[n] for n in names), **{k: v for k, v in a.items() if k not in names})
        want = _grads(ref, *(up[n] for n in names), **{k: v for k, v in up.items() if k not in names})
        for item, g, w in zip(("loss", "grad of policy_chosen_logps", "grad of policy_rejected_logps"), got, want):
            rtol, atol = spec.tolerance_for(case, item, torch.float32, w)
            excess = float(((g.double() - w).abs() - rtol * w.abs()).max()) / atol
            worst = max(worst, excess)
    assert worst < 0.5, worst
