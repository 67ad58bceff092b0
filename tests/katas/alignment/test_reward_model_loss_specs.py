"""reward-model-loss's own rules (KATAS-training-2.md, decision 12): TRL's compute_loss with the margin inside the
sigmoid and the centring term as the mean of squared sums; stable for |d| up to 1e4; the exact gradient at d = 0,
which only `equal_rewards_log2` (and its siblings) separates from a clamp- or relu-kinked softplus, and whose report
names the kink; the stub says the rule in its first lines, in both languages.

The rest (every mistake named as itself, the corpus, the drills, the device defaults) is in the all-kata tests.
"""
from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text import catalog, i18n
from tests.spec_support import cases, family, fresh, one_thread, reference_of, roundtrip, spec_of  # noqa: F401

KATA = catalog.get("reward-model-loss")
SPEC = spec_of(KATA.id)
CPU = torch.device("cpu")
MISTAKES = {(m.key, m.variant): m.fn for m in SPEC.MISTAKES}


def _outcome(fn, case):
    try:
        return roundtrip(SPEC.call(KATA, fn, fresh(case.inputs), CPU, track_device=case.family.track_device))
    except Exception:  # noqa: BLE001 — a variant that raises fails the case
        return None


def _problems(case, fn):
    expected = _outcome(reference_of(KATA), case)
    got = _outcome(fn, case)
    return ["raised"] if got is None else SPEC.compare(KATA, case, [expected], got)


def test_every_edge_case_family_of_the_contract_is_named_and_there_are_100_cases():
    names = {f.name for f in SPEC.FAMILIES}
    for name in ("typical", "batch_one", "equal_rewards_log2", "chosen_far_below_1e4", "chosen_far_below_150",
                 "chosen_far_below_9000_float64", "chosen_far_above_1e4", "float_margin", "tensor_margin",
                 "margin_zero", "margin_30", "centring", "centring_tensor_margin_float64", "centring_none_given",
                 "float64", "random", "inputs_unmodified", "device"):
        assert name in names, name
    assert len(spec_api.case_names(SPEC)) >= 100
    assert len(SPEC.MISTAKES) >= 8


def test_the_stub_says_the_d0_rule_in_its_first_lines_in_both_languages():
    for lang, words in (("en", "must be smooth at d = 0"), ("zh", "在 d = 0 处必须光滑")):
        head = "\n".join(KATA.text(lang).contract.strip().splitlines()[:4])
        assert words in head and "F.logsigmoid(d)" in head and "clamp" in head and "relu" in head, lang


def test_equal_rewards_give_log2_and_half_the_gradient_and_the_kinks_are_off_by_a_factor():
    rc = torch.tensor([0.3, -1.2, 2.0, 0.0], dtype=torch.float64)
    got = {}
    for name, fn in (("reference", reference_of(KATA)), ("clamp", MISTAKES[("kinked_stable_formula", "")]),
                     ("relu", MISTAKES[("kinked_relu_formula", "")])):
        a, b = rc.clone().requires_grad_(True), rc.clone().requires_grad_(True)
        loss = fn(a, b)
        loss.backward()
        assert math.isclose(float(loss.detach()), math.log(2), rel_tol=1e-15), name
        got[name] = a.grad
    B = len(rc)
    assert torch.equal(got["reference"], torch.full((B,), -0.5 / B, dtype=torch.float64))
    assert torch.equal(got["clamp"], torch.full((B,), -1.0 / B, dtype=torch.float64))  # doubled
    assert torch.equal(got["relu"], torch.zeros(B, dtype=torch.float64))  # a zero-initialised head never moves


def test_right_forms_the_contract_names_pass_every_case():
    """softplus, BCE with logits, logaddexp, torch.maximum's stable softplus, d written as rc - (rr + m) in float32:
    the tolerances take another order of the same subtraction with rewards of 1e4."""
    def form(kind):
        def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
            m = 0.0 if margin is None else margin
            d = chosen_rewards - (rejected_rewards + m)
            if kind == "softplus":
                per = F.softplus(-d)
            elif kind == "bce":
                per = F.binary_cross_entropy_with_logits(d, torch.ones_like(d), reduction="none")
            elif kind == "logaddexp":
                per = torch.logaddexp(torch.zeros_like(d), -d)
            else:
                per = torch.maximum(-d, torch.zeros_like(d)) + torch.log1p(torch.exp(-d.abs()))
            loss = per.mean()
            if center_rewards_coefficient is not None:
                loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
            return loss
        return reward_model_loss
    for kind in ("softplus", "bce", "logaddexp", "maximum"):
        for case in cases(KATA.id, seed=4):
            assert not _problems(case, form(kind)), (kind, case.name)


def test_log1p_exp_is_exact_at_the_tie_and_fails_only_for_stability():
    def log1p_exp(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
        d = chosen_rewards - rejected_rewards - (0.0 if margin is None else margin)
        loss = torch.log1p(torch.exp(-d)).mean()
        if center_rewards_coefficient is not None:
            loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
        return loss
    failing = {c.family.name for c in cases(KATA.id, seed=2) if not c.family.name.startswith("random")
               and _problems(c, log1p_exp)}
    assert failing and all(name.startswith(("chosen_far_below", "far_both_ways")) for name in failing), failing
    assert not _problems(family(KATA.id, "equal_rewards_log2")[0], log1p_exp)


def test_the_tie_report_names_the_kink_in_both_languages():
    case = family(KATA.id, "equal_rewards_log2")[0]
    for lang in ("en", "zh"):
        with i18n.speaking(lang):
            for key in ("kinked_stable_formula", "kinked_relu_formula"):
                problems = _problems(case, MISTAKES[(key, "")])
                assert problems and problems[0].kind == "rule", key
                said = problems[0].message
                assert "-1/(2B) = -0.0625" in said and "F.logsigmoid(d)" in said, said
                assert ("slope" in said) == (lang == "en") and ("斜率" in said) == (lang == "zh")
    # a wrong loss at the tie is not a kink: the generic report stands
    wrong_value = _problems(case, MISTAKES[("sum_not_mean", "")])
    assert wrong_value and wrong_value[0].kind != "rule"


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_reference_is_stable_at_1e4_both_ways(dtype):
    rc = torch.tensor([-5e3, 5e3], dtype=dtype, requires_grad=True)
    rr = torch.tensor([5e3, -5e3], dtype=dtype, requires_grad=True)
    loss = reference_of(KATA)(rc, rr)
    loss.backward()
    assert loss.dtype == dtype and math.isclose(float(loss.detach()), 1e4 / 2, rel_tol=1e-6)
    assert torch.equal(rc.grad, torch.tensor([-0.5, 0.0], dtype=dtype))  # -σ(-d)/B: 1/2 and 0


def test_the_centring_term_is_the_mean_of_squared_sums():
    rc = torch.tensor([3.0, 1.0], dtype=torch.float64)
    rr = torch.tensor([1.0, -5.0], dtype=torch.float64)
    with_term = reference_of(KATA)(rc, rr, center_rewards_coefficient=0.5)
    without = reference_of(KATA)(rc, rr)
    assert math.isclose(float(with_term - without), 0.5 * (16 + 16) / 2, rel_tol=1e-14)  # sums 4 and -4
    # the square of the mean of those sums is 0: the mistake misses the drift entirely
    assert float(MISTAKES[("centring_square_of_mean", "")](rc, rr, center_rewards_coefficient=0.5) - without) == 0.0


def test_the_margin_is_subtracted_inside_the_sigmoid():
    rc, rr = torch.tensor([20.0], dtype=torch.float64), torch.tensor([5.0], dtype=torch.float64)
    loss = reference_of(KATA)(rc, rr, margin=30.0)
    assert math.isclose(float(loss), float(F.softplus(torch.tensor(15.0, dtype=torch.float64))), rel_tol=1e-14)
    tensor_margin = reference_of(KATA)(rc, rr, margin=torch.tensor([30.0], dtype=torch.float64))
    assert float(tensor_margin) == float(loss)
    assert float(reference_of(KATA)(rc, rr, margin=0.0)) == float(reference_of(KATA)(rc, rr))
