"""The training katas cross-entropy, top-p and dpo-loss: enough cases, reproducible inputs, edge
cases that are what they say, the reference passing on many seeds, every known mistake failing and
named, the top-p tie rule accepting each of the four conventions and nothing else, and the
requires_grad checks biting."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from checker.text import catalog
from checker.judge import static
from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.results import Status
from checker.specs import _training
from tests.conftest import CORPUS, run_check
from tests.spec_support import (  # noqa: F401 — one_thread: an autouse fixture
    cases as _cases,
    family as _family,
    fresh as _fresh,
    one_thread,
    reference_of as _reference,
    roundtrip as _roundtrip,
    spec_of as _spec,
)

KATAS = ("cross-entropy", "top-p", "dpo-loss")
CPU = torch.device("cpu")
INF = float("-inf")


def _expected(kata, spec, case):
    hook = getattr(spec, "expected", None)
    ref = _reference(kata)
    call = getattr(spec, "call", spec_api.call)  # as the engine runs the reference
    alternatives = hook(kata, ref, case.inputs, CPU) if hook else [call(kata, ref, case.inputs, CPU)]
    return [_roundtrip(a) for a in alternatives]


def _judge(kata, spec, case, fn, expected=None) -> list:
    """The engine's verdict on one case, in process: [] when fn passes, else what went wrong."""
    call = getattr(spec, "call", spec_api.call)
    inputs = _fresh(case.inputs)
    try:
        got = _roundtrip(call(kata, fn, inputs, CPU, track_device=case.family.track_device))
    except Exception as exc:  # noqa: BLE001 — a variant that raises fails the case
        return [f"raised {type(exc).__name__}: {exc}"]
    changed = [n for n, v in case.inputs.args.items() if isinstance(v, torch.Tensor) and not torch.equal(v, inputs.args[n])]
    if changed:
        return [f"modified {changed}"]
    alternatives = expected if expected is not None else _expected(kata, spec, case)
    custom = spec.compare(kata, case, alternatives, got) if hasattr(spec, "compare") else None
    if custom is not None:
        return custom
    verdicts = [compare_outcome(kata, spec, case, a, got) for a in alternatives]
    return [] if any(not v for v in verdicts) else verdicts[0]


def _case(kata_id, name, seed=3):
    return spec_api.build_cases(_spec(kata_id), seed, name)[0]


# ---------------------------------------------------------------- the shape of each spec


@pytest.mark.parametrize("kata_id", KATAS)
@pytest.mark.parametrize("seed", (1, 2, 3, 4))
def test_the_reference_passes_every_case_in_process(kata_id, seed):
    """The control for the mistakes below: the same judge passes the reference, on many seeds."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    for case in spec_api.build_cases(spec, seed):
        assert _judge(kata, spec, case, _reference(kata)) == [], case.name


# ---------------------------------------------------------------- known mistakes fail, and are named


@pytest.mark.parametrize("kata_id,index", [(k, i) for k in KATAS for i in range(len(_spec(k).MISTAKES))],
                         ids=lambda v: str(v))
def test_every_known_mistake_fails_its_kata(kata_id, index):
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    mistake = spec.MISTAKES[index]
    failing = next((c.name for c in _cases(kata_id) if _judge(kata, spec, c, mistake.fn)), None)
    assert failing is not None, f"'{mistake.key}' passes every case of {kata_id}"


# Mistakes that by construction only show on an edge, with the reason.
ONLY_ON_EDGES = {
    "cross-entropy": {"no_max_shift", "log_of_softmax",  # only with logits of ~1e4 or underflowing targets
                      "log_of_softmax_in_input_dtype",  # ... or in float16 (two variants: masked by a product or by torch.where)
                      "no_max_shift_in_input_dtype",
                      "nan_when_all_ignored", "detached_zero_when_all_ignored",  # only when every row is ignored
                      "nan_gradient_when_all_ignored"},
    "top-p": {"keeps_one_more_at_equality",  # only where a partial sum equals top_p exactly
              "top_p_one_still_filters",  # only where probabilities underflow at top_p = 1.0
              "top_p_over_all_tokens"},  # only with top_k and top_p together, a third of the draws
    "dpo-loss": {"log_of_sigmoid", "where_nan_gradient",  # only where exp or sigmoid over- or underflows (|z| > ~88)
                 "kinked_stable_formula", "kinked_relu_formula"},  # only at z = 0 exactly
}


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_reference_matches_none_of_its_mistakes_on_random_cases(kata_id):
    """Each mistake is wrong on typical inputs, not only on a corner (except those named above)."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    cases = [c for c in _cases(kata_id, 2) if c.family.name == "random"]
    expected = {c.name: _expected(kata, spec, c) for c in cases}
    for mistake in spec.MISTAKES:
        if mistake.key in ONLY_ON_EDGES[kata_id]:
            continue
        failing = sum(bool(_judge(kata, spec, c, mistake.fn, expected[c.name])) for c in cases)
        assert failing >= math.ceil(0.1 * len(cases)), f"{kata_id}: '{mistake.key}' fails only {failing} random cases"


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_edge_only_mistakes_fail_on_their_named_edges(kata_id):
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    cases = [c for c in _cases(kata_id, 2) if not c.family.name.startswith("random")]
    for mistake in spec.MISTAKES:
        if mistake.key in ONLY_ON_EDGES[kata_id]:
            assert any(_judge(kata, spec, c, mistake.fn) for c in cases), mistake.key


# Each known mistake, written as a learner would, and a case it fails: the real engine must name it.
NAMED = {
    "cross-entropy": {
        "wrong_no_max_shift.py": ("no_max_shift_in_input_dtype", None),  # float16 tells it from the float32 one
        "wrong_no_max_shift_upcast.py": ("no_max_shift", None),
        "wrong_log_of_softmax.py": ("log_of_softmax_in_input_dtype", None),  # float16 tells it from the float32 one
        "wrong_log_probs_of_half.py": ("log_of_softmax_in_input_dtype", None),
        "wrong_log_of_softmax_upcast.py": ("log_of_softmax", None),  # told from the float16 one by a float16 case
        "wrong_mean_over_all_rows.py": ("mean_over_all_rows", "some_ignored"),
        "wrong_ignored_rows_in_sum.py": ("ignored_rows_in_sum", "some_ignored"),
        "wrong_smoothing_k_minus_1.py": ("smoothing_over_k_minus_1", "smoothing_0_1"),
        "wrong_smoothing_no_one_minus_eps.py": ("smoothing_without_one_minus_eps", "smoothing_0_1"),
        "wrong_smoothing_ignored.py": ("smoothing_ignored", "smoothing_0_1"),
        "wrong_ignore_minus_100_literal.py": ("ignore_index_hardcoded", "ignore_index_negative_one"),
        "wrong_mask_negative_targets.py": ("ignore_mask_negative", None),  # told from -100 by ignore_index -1
        "wrong_smoothed_mean_over_classes.py": ("smoothed_loss_mean_over_classes", "smoothing_0_1"),
        "wrong_smoothing_summed_not_averaged.py": ("smoothing_summed_over_classes", "smoothing_0_1"),
        "wrong_smoothing_on_ignored_rows.py": ("smoothing_on_ignored_rows", "smoothing_0_1"),
        "wrong_smoothing_on_ignored_rows_mean.py": ("smoothing_mean_over_all_rows", "smoothing_0_1"),
        "wrong_sum_not_mean.py": ("sum_not_mean", "no_ignored"),
        "wrong_nan_when_all_ignored.py": ("nan_when_all_ignored", "all_ignored"),
        "wrong_detached_zero.py": ("detached_zero_when_all_ignored", "all_ignored"),
        "wrong_where_nan_gradient.py": ("nan_gradient_when_all_ignored", "all_ignored"),
    },
    "top-p": {
        "wrong_crossing_token_dropped.py": ("crossing_token_dropped", None),  # > and >= differ at equality only
        "wrong_keeps_one_more.py": ("keeps_one_more_at_equality", "four_equal_half"),
        "wrong_cumsum_reaches_dropped.py": ("crossing_token_dropped_at_reach", None),  # told apart at equality
        "wrong_cumsum_exceeds_no_shift.py": ("crossing_token_dropped_no_first", None),
        "wrong_cumsum_reaches_no_first.py": ("crossing_token_dropped_at_reach_no_first", None),
        "wrong_ascending_sort.py": ("ascending_sort", "top_p_half"),
        "wrong_top_p_before_top_k.py": ("top_p_over_all_tokens", "top_k_then_top_p"),
        "wrong_no_renormalisation.py": ("top_p_over_all_tokens", "top_k_then_top_p"),
        "wrong_cumsum_of_logits.py": ("filters_logits_not_probabilities", "top_p_half"),
        "wrong_returns_probabilities.py": ("returns_probabilities", "top_k_middle"),
        "wrong_finfo_min.py": ("finfo_min_not_inf", "top_k_middle"),
        "wrong_top_p_one_filters.py": ("top_p_one_still_filters", "top_p_one_underflow"),
    },
    "dpo-loss": {
        "wrong_sign_flipped.py": ("sign_flipped", "typical"),
        "wrong_beta_outside.py": ("beta_outside_sigmoid", "typical"),
        "wrong_log_of_sigmoid.py": ("log_of_sigmoid", "margin_minus_150"),
        "wrong_no_reference.py": ("reference_left_out", "typical"),
        "wrong_kinked_clamp.py": ("kinked_stable_formula", "policy_equals_reference"),
        "wrong_kinked_relu.py": ("kinked_relu_formula", "policy_equals_reference"),
        "wrong_where_nan_gradient.py": ("where_nan_gradient", "margin_minus_150"),
        "wrong_sum_not_mean.py": ("sum_not_mean", "typical"),
        "wrong_rewards_without_beta.py": ("rewards_without_beta", "typical"),
        "wrong_rewards_not_detached.py": ("rewards_not_detached", "rewards_detached"),
        "wrong_rewards_swapped.py": ("rewards_swapped", "typical"),
        "wrong_beta_on_chosen_only.py": ("beta_on_chosen_only", "typical"),
        "wrong_beta_on_rejected_only.py": ("beta_on_rejected_only", "typical"),
        "wrong_reference_added.py": ("reference_added", "typical"),
    },
}


@pytest.mark.parametrize("kata_id", KATAS)
def test_every_mistake_has_a_corpus_file_that_the_engine_names(kata_id):
    keys = {m.key for m in _spec(kata_id).MISTAKES}
    assert keys == {key for key, _ in NAMED[kata_id].values()}


@pytest.mark.parametrize("kata_id,filename", [(k, f) for k in KATAS for f in NAMED[k]], ids=lambda v: str(v))
def test_the_engine_names_the_mistake(kata_id, filename):
    kata = catalog.get(kata_id)
    key, case = NAMED[kata_id][filename]
    result = run_check(CORPUS / kata.module / filename, kata_id, seed=5, case=case)
    label = kata.text("en").mistakes[key].label
    if case is None:  # a whole check: the cases a report shows carry the name, no case another
        shown = [c for c in result.failures() if c.status is Status.FAIL][:3]
        assert shown and {c.mistake for c in shown} == {label}, result.message
        assert {c.mistake for c in result.failures()} <= {label, None}
        return
    assert result.status is Status.FAIL, result.message
    assert [c.mistake for c in result.failures()] == [label] * len(result.failures())


@pytest.mark.parametrize("kata_id,filename,case", [("top-p", "wrong_in_place.py", "top_k_middle"),
                                                    ("top-p", "wrong_minus_1e9.py", "top_k_middle"),
                                                    ("top-p", "wrong_top_k_above_v.py", "top_k_above_v")])
def test_a_failure_no_mistake_explains_is_not_named(kata_id, filename, case):
    """Named only when the learner's output matches a known mistake: modifying the input, a -1e9
    fill or an exception match none."""
    kata = catalog.get(kata_id)
    result = run_check(CORPUS / kata.module / filename, kata_id, seed=5, case=case)
    assert result.status is not Status.PASS and not any(c.mistake for c in result.failures())


# ---------------------------------------------------------------- cross-entropy edge cases


def _ce_reference():
    return _reference(catalog.get("cross-entropy"))


def test_cross_entropy_edges_are_what_they_say():
    for name in ("huge_logits", "huge_logits_smoothing", "float64_huge_logits"):
        x = _case("cross-entropy", name).inputs.args["logits"]
        assert x.abs().max() > 1e3 and torch.isinf(torch.exp(x)).any(), name
    for name in ("target_probability_underflows", "target_probability_underflows_smoothing"):
        a = _case("cross-entropy", name).inputs.args
        p = torch.softmax(a["logits"], -1).gather(1, a["targets"][:, None])
        assert (p == 0).all(), name
    assert (_case("cross-entropy", "ignore_index_zero").inputs.args["targets"] == 0).sum() >= 2
    kept = _case("cross-entropy", "ignore_index_zero").inputs.args["targets"] != 0
    assert kept.any()
    a = _case("cross-entropy", "ignore_index_k").inputs.args
    assert a["ignore_index"] == a["logits"].shape[1] and (a["targets"] == a["ignore_index"]).any()
    for name in ("all_ignored", "all_ignored_smoothing", "all_ignored_one_row", "float16_all_ignored"):
        a = _case("cross-entropy", name).inputs.args
        assert (a["targets"] == a.get("ignore_index", -100)).all(), name
    assert {_case("cross-entropy", n).inputs.args["label_smoothing"] for n in ("no_ignored", "smoothing_0_1", "smoothing_one")} == {0.0, 0.1, 1.0}
    assert _case("cross-entropy", "one_row").inputs.args["logits"].shape[0] == 1
    assert _case("cross-entropy", "two_classes").inputs.args["logits"].shape[1] == 2
    assert _case("cross-entropy", "vocab_32000").inputs.args["logits"].shape[1] == 32000
    ends = _case("cross-entropy", "targets_first_and_last").inputs.args
    assert set(ends["targets"].tolist()) <= {0, ends["logits"].shape[1] - 1}
    assert "ignore_index" not in _case("cross-entropy", "defaults").inputs.args
    dtypes = {_case("cross-entropy", n).inputs.args["logits"].dtype for n in ("float64", "float16", "bfloat16")}
    assert dtypes == {torch.float64, torch.float16, torch.bfloat16}
    scales = _case("cross-entropy", "rows_of_different_scales").inputs.args["logits"].abs().amax(-1)
    assert scales.max() / scales.min() > 1e4


def test_cross_entropy_matches_torch_where_torch_is_defined():
    ref = _ce_reference()
    for case in _cases("cross-entropy", 7):
        a = case.inputs.args
        index = a.get("ignore_index", -100)
        if (a["targets"] == index).all() or a["logits"].dtype in _training.HALF:
            continue
        want = F.cross_entropy(a["logits"], a["targets"], ignore_index=index, label_smoothing=a.get("label_smoothing", 0.0))
        torch.testing.assert_close(ref(**a), want, msg=case.name)


def test_all_ignored_loss_is_an_attached_zero_with_a_zero_gradient():
    ref = _ce_reference()
    for name in ("all_ignored", "all_ignored_smoothing", "all_ignored_one_row"):
        a = _case("cross-entropy", name).inputs.args
        logits = a["logits"].clone().requires_grad_(True)
        loss = ref(**{**a, "logits": logits})
        assert loss.requires_grad and loss.item() == 0.0
        loss.backward()
        assert torch.equal(logits.grad, torch.zeros_like(logits)), name
        torch_says = F.cross_entropy(a["logits"], a["targets"], ignore_index=a.get("ignore_index", -100))
        assert torch.isnan(torch_says), "the contract differs from torch here on purpose"


def _ce_variant(key):
    return next(m.fn for m in _spec("cross-entropy").MISTAKES if m.key == key)


def test_cross_entropy_requires_grad_check_bites():
    kata, spec = catalog.get("cross-entropy"), _spec("cross-entropy")
    case = _case("cross-entropy", "all_ignored")
    problems = _judge(kata, spec, case, _ce_variant("detached_zero_when_all_ignored"))
    assert [p.kind for p in problems] == ["rule"] and "requires_grad=True" in problems[0].message
    nan_grad = _judge(kata, spec, case, _ce_variant("nan_gradient_when_all_ignored"))
    assert nan_grad and nan_grad[0].item == "grad of logits" and nan_grad[0].kind == "nonfinite"

    def leaf_zero(logits, targets, ignore_index=-100, label_smoothing=0.0):  # backward works, but no gradient
        return torch.zeros((), dtype=logits.dtype, requires_grad=True)

    assert _judge(kata, spec, case, leaf_zero)


# ---------------------------------------------------------------- top-p: the tie rule

TOP_P = "top-p"


def _keep_first(logits, n):
    """Keep the n largest of each row (ties broken by position), n: (B,) tensor."""
    order = logits.sort(dim=-1, descending=True, stable=True).indices
    positions = torch.arange(logits.size(-1), device=logits.device).expand_as(order)
    rank = torch.empty_like(order).scatter_(-1, order, positions)
    return logits.masked_fill(rank >= n[:, None], INF)


def _convention(k_ties: bool, p_ties: bool):
    """One of the four tie conventions: top-k keeping every tie or exactly top_k, then top-p
    keeping every tie of the crossing token or exactly the n* it needs."""
    def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
        x = logits.double()
        B, V = x.shape
        if 0 < top_k < V:
            kth = x.topk(top_k, dim=-1).values[:, -1:]
            x = x.masked_fill(x < kth, INF) if k_ties else _keep_first(x, torch.full((B,), top_k, device=x.device))
        if top_p < 1.0:
            s = x.sort(dim=-1, descending=True).values
            p = torch.softmax(s, -1)
            n = ((p.cumsum(-1) - p) < top_p).sum(-1)  # the n* each row needs
            if p_ties:
                cut = s.gather(-1, (n - 1)[:, None])
                x = x.masked_fill(x < cut, INF)
            else:
                x = _keep_first(x, n)
        return logits.masked_fill(torch.isinf(x) & ~torch.isinf(logits), INF)
    return top_k_top_p_filter


CONVENTIONS = {f"k_{'all' if kt else 'exact'}_p_{'all' if pt else 'exact'}": _convention(kt, pt)
               for kt in (True, False) for pt in (True, False)}
TIE_FAMILIES = ("ties_at_kth", "ties_at_kth_then_top_p", "ties_at_crossing", "four_equal_half", "four_equal_quarter",
                "eight_equal_quarter", "random_ties")


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_each_tie_convention_passes_every_case(convention):
    kata, spec = catalog.get(TOP_P), _spec(TOP_P)
    for seed in (1, 2):
        for case in spec_api.build_cases(spec, seed):
            assert _judge(kata, spec, case, CONVENTIONS[convention]) == [], (convention, case.name)


def test_the_conventions_differ_on_the_tie_cases():
    for name in ("ties_at_kth", "ties_at_kth_then_top_p", "ties_at_crossing", "four_equal_half", "eight_equal_quarter"):
        a = _case(TOP_P, name).inputs.args
        kept = {c: int(torch.isfinite(f(**a)).sum()) for c, f in CONVENTIONS.items()}
        assert len(set(kept.values())) >= 2, (name, kept)


def test_exact_boundaries_accept_two_or_four_never_three():
    spec = _spec(TOP_P)
    row = torch.zeros(4)
    assert spec.cut_sizes(row, 0, 0.5) == {2, 4}
    assert spec.cut_sizes(torch.zeros(8), 0, 0.25) == {2, 8}
    assert spec.cut_sizes(row, 0, 0.25) == {1, 4}


def _perturbed(kind):
    """Outputs that break the rule in one way, built from the reference's answer."""
    ref = _reference(catalog.get(TOP_P))

    def filt(logits, top_k=0, top_p=1.0):
        out = ref(logits, top_k, top_p)
        kept = torch.isfinite(out)
        if kind == "one_more":  # the best removed finite token put back
            cand = torch.where(~kept & torch.isfinite(logits), logits, torch.full_like(logits, INF))
            if torch.isfinite(cand).any():
                best = cand.flatten().argmax()
                out.view(-1)[best] = logits.view(-1)[best]
        elif kind == "one_less":  # the worst kept token of a row with more than one removed
            cand = torch.where(kept, logits, torch.full_like(logits, math.inf))
            rows = kept.sum(-1) > 1
            if rows.any():
                b = int(rows.nonzero()[0])
                out[b, cand[b].argmin()] = INF
        elif kind == "not_closed":  # keep the worst finite token instead of the best kept one
            b = 0
            if kept[b].sum() < torch.isfinite(logits[b]).sum():
                worst = torch.where(torch.isfinite(logits[b]), logits[b], torch.full_like(logits[b], math.inf)).argmin()
                best = torch.where(kept[b], logits[b], torch.full_like(logits[b], INF)).argmax()
                out[b, worst], out[b, best] = logits[b, worst], INF
        elif kind == "nudged":  # a kept logit one ulp off
            b, j = kept.nonzero()[0].tolist()
            out[b, j] = torch.nextafter(out[b, j], torch.tensor(math.inf, dtype=out.dtype))
        elif kind == "nan":
            out[0, 0] = math.nan
        elif kind == "minus_1e4_fill":
            out = out.masked_fill(~kept & torch.isfinite(logits), -1e4)
        return out
    return filt


@pytest.mark.parametrize("kind", ("one_more", "one_less", "not_closed", "nudged", "nan", "minus_1e4_fill"))
def test_the_tie_rule_rejects_everything_else(kind):
    """Each perturbation of the reference's answer breaks the rule wherever it changes the answer
    (on these families no perturbation lands on another valid size)."""
    kata, spec = catalog.get(TOP_P), _spec(TOP_P)
    names = TIE_FAMILIES[:-1] + ("top_k_middle", "top_p_half", "top_k_then_top_p", "neg_inf_entries_top_p", "float16")
    cases = [c for c in _cases(TOP_P, 1) if c.family.name in names]
    ref, wrong = _reference(kata), _perturbed(kind)
    changed = [c.name for c in cases if not torch.equal(wrong(**c.inputs.args), ref(**c.inputs.args))]
    failing = [c.name for c in cases if _judge(kata, spec, c, wrong)]
    assert len(changed) >= 5 and failing == changed, kind


def test_top_p_problems_name_the_row_and_the_sizes():
    kata, spec = catalog.get(TOP_P), _spec(TOP_P)
    case = _case(TOP_P, "four_equal_half")

    def three(logits, top_k=0, top_p=1.0):
        return logits.clone().index_fill(1, torch.tensor([3]), INF)

    problems = _judge(kata, spec, case, three)
    assert problems[0].kind == "rule" and "row 0: 3 tokens kept, expected 2 or 4" in problems[0].message
    probs = _judge(kata, spec, _case(TOP_P, "top_k_middle"), lambda logits, top_k=0, top_p=1.0: logits.softmax(-1))
    assert "probabilities" in probs[0].message
    fill = _judge(kata, spec, _case(TOP_P, "top_k_middle"),
                  lambda logits, top_k=0, top_p=1.0: logits.masked_fill(logits < logits.topk(top_k).values[:, -1:], -1e9))
    assert "exactly -inf" in fill[0].message


def test_top_p_draws_keep_away_from_every_partial_sum():
    spec = _spec(TOP_P)
    for seed in (1, 2, 3):
        for case in spec_api.build_cases(spec, seed):
            a = case.inputs.args
            top_p = a.get("top_p", 1.0)
            if top_p >= 1.0 or top_p < 1e-5 or case.family.name in TIE_FAMILIES[3:6]:
                continue  # off, below every probability, or the exact powers of two
            sums = spec.partial_sums(a["logits"], a.get("top_k", 0))
            gap = float(np.abs(sums - top_p).min())
            assert gap >= spec.margin_for(a["logits"].dtype) - 1e-12, (case.name, gap)


def test_top_p_edges_are_what_they_say():
    spec = _spec(TOP_P)
    for name in ("top_p_one_underflow", "top_p_one_underflow_top_k"):
        a = _case(TOP_P, name).inputs.args
        p = torch.softmax(a["logits"], -1)
        mass_before = p.sort(-1, descending=True).values.cumsum(-1) - p.sort(-1, descending=True).values
        assert a["top_p"] == 1.0 and (mass_before >= 1.0).any(), name
    a = _case(TOP_P, "top_p_one_underflow_top_k").inputs.args
    kth = torch.softmax(a["logits"], -1).sort(-1, descending=True).values[:, a["top_k"] - 1]
    assert (kth > 0).all(), "top-k by probability must agree with top-k by logit here"
    a = _case(TOP_P, "neg_inf_entries").inputs.args
    finite = torch.isfinite(a["logits"]).sum(-1)
    assert torch.isinf(a["logits"]).any() and (finite >= 1).all() and (a["top_k"] > finite).any()
    assert _case(TOP_P, "top_k_above_v").inputs.args["top_k"] > _case(TOP_P, "top_k_above_v").inputs.args["logits"].shape[1]
    assert _case(TOP_P, "vocab_one").inputs.args["logits"].shape[1] == 1
    assert _case(TOP_P, "vocab_32000").inputs.args["logits"].shape[1] == 32000
    assert "top_k" not in _case(TOP_P, "defaults").inputs.args and "top_p" not in _case(TOP_P, "defaults").inputs.args
    a = _case(TOP_P, "peaked_row").inputs.args
    assert (torch.softmax(a["logits"], -1).amax(-1) >= a["top_p"]).all()
    scales = _case(TOP_P, "rows_of_different_scales").inputs.args["logits"].abs().amax(-1)
    assert scales.max() / scales.min() > 100
    over_all = next(m.fn for m in spec.MISTAKES if m.key == "top_p_over_all_tokens")
    ref = _reference(catalog.get(TOP_P))
    for case in _family(TOP_P, "top_k_then_top_p"):
        assert not torch.equal(over_all(**case.inputs.args), ref(**case.inputs.args))
    for name in ("float16", "bfloat16", "random_half.0"):
        x = _case(TOP_P, name).inputs.args["logits"]
        for row in x.float():
            gaps = row[torch.isfinite(row)].sort().values.diff()
            assert x.dtype in _training.HALF and (gaps >= 1 / 16).all(), name


def test_top_p_half_cases_use_a_float32_reference_rounded_once():
    kata, spec = catalog.get(TOP_P), _spec(TOP_P)
    case = _case(TOP_P, "bfloat16")
    [outcome] = spec.expected(kata, _reference(kata), case.inputs, CPU)
    assert outcome.value.dtype == torch.bfloat16
    kept = torch.isfinite(outcome.value)
    assert torch.equal(outcome.value[kept], case.inputs.args["logits"][kept])


# ---------------------------------------------------------------- dpo-loss


def _dpo_variant(key):
    return next(m.fn for m in _spec("dpo-loss").MISTAKES if m.key == key)


def test_dpo_edges_are_what_they_say():
    names = ("policy_chosen_logps", "policy_rejected_logps", "ref_chosen_logps", "ref_rejected_logps")

    def z(name):
        a = _case("dpo-loss", name).inputs.args
        pc, pr, rc, rr = (a[n].double() for n in names)
        assert all((a[n] <= 0).all() for n in names), name
        return a.get("beta", 0.1) * ((pc - pr) - (rc - rr)), a

    zz, a = z("policy_equals_reference")
    assert (zz == 0).all() and torch.equal(a["policy_chosen_logps"], a["ref_chosen_logps"])
    for name, target, dtype in (("margin_minus_150", -150, torch.float32), ("margin_minus_1000", -1000, torch.float32),
                                ("margin_minus_9000_float64", -9000, torch.float64), ("margin_plus_150", 150, torch.float32)):
        zz, a = z(name)
        assert ((zz / target - 1).abs() < 0.2).all() and a["policy_chosen_logps"].dtype == dtype, name
        if target < 0:
            assert (torch.sigmoid(zz.to(dtype)) == 0).all(), f"{name}: sigmoid(z) should underflow"
    zz, _ = z("mixed_signs")
    assert (zz > 100).any() and (zz < -100).any()
    assert _case("dpo-loss", "batch_one").inputs.args["policy_chosen_logps"].shape == (1,)
    assert {_case("dpo-loss", n).inputs.args["beta"] for n in ("beta_small", "beta_large")} == {0.01, 5.0}
    assert "beta" not in _case("dpo-loss", "default_beta").inputs.args
    assert _case("dpo-loss", "large_log_probs").inputs.args["ref_chosen_logps"].abs().min() > 500


@pytest.mark.parametrize("name", ("policy_equals_reference", "policy_equals_reference_one", "policy_equals_reference_float64"))
def test_dpo_gradient_at_z_zero_is_half_beta_over_b(name):
    kata = catalog.get("dpo-loss")
    inputs = _case("dpo-loss", name).inputs
    outcome = spec_api.call(kata, _reference(kata), inputs, CPU)
    a = inputs.args
    B, beta = a["policy_chosen_logps"].shape[0], a.get("beta", 0.1)
    loss = outcome.value[0]
    assert torch.isclose(loss.double(), torch.tensor(math.log(2), dtype=torch.float64))
    want = torch.full((B,), beta / (2 * B), dtype=a["policy_chosen_logps"].dtype)
    assert torch.equal(outcome.extras["grad of policy_chosen_logps"], -want)
    assert torch.equal(outcome.extras["grad of policy_rejected_logps"], want)
    kinked = spec_api.call(kata, _dpo_variant("kinked_stable_formula"), inputs, CPU)
    assert torch.equal(kinked.extras["grad of policy_chosen_logps"], -2 * want), "the kinked formula doubles it"


def test_dpo_rewards_must_be_detached():
    kata, spec = catalog.get("dpo-loss"), _spec("dpo-loss")
    case = _case("dpo-loss", "rewards_detached")
    outcome = spec.call(kata, _reference(kata), _fresh(case.inputs), CPU)
    assert outcome.extras["chosen_rewards requires_grad"] is False
    assert outcome.extras["rejected_rewards requires_grad"] is False
    assert case.inputs.grad_of == ("policy_chosen_logps", "policy_rejected_logps")
    problems = _judge(kata, spec, case, _dpo_variant("rewards_not_detached"))
    assert {p.item for p in problems} == {"chosen_rewards", "rejected_rewards"}
    assert all(p.kind == "rule" and "detach" in p.message for p in problems)


def test_dpo_is_stable_where_log_sigmoid_is_not():
    ref = _reference(catalog.get("dpo-loss"))
    for name in ("margin_minus_150", "margin_minus_1000", "margin_minus_9000_float64", "mixed_signs"):
        a = {k: v.clone().requires_grad_(k.startswith("policy")) if isinstance(v, torch.Tensor) else v
             for k, v in _case("dpo-loss", name).inputs.args.items()}
        loss, _, _ = ref(**a)
        loss.backward()
        assert torch.isfinite(loss) and torch.isfinite(a["policy_chosen_logps"].grad).all(), name
        naive, _, _ = _dpo_variant("log_of_sigmoid")(**a)
        assert torch.isinf(naive), f"{name}: log(sigmoid(z)) should overflow here"


# ---------------------------------------------------------------- bans, low precision, the stubs


@pytest.mark.parametrize("kata_id,source", [
    ("cross-entropy", "import torch.nn.functional as F\ny = F.cross_entropy(a, b)"),
    ("cross-entropy", "import torch\ny = torch.nn.functional.nll_loss(a, b)"),
    ("cross-entropy", "from torch.nn.functional import cross_entropy as ce"),
    ("cross-entropy", "from torch import nn\nm = nn.CrossEntropyLoss()"),
    ("cross-entropy", "import torch.nn as nn\nm = nn.NLLLoss()"),
    ("cross-entropy", "from torch.nn.modules.loss import CrossEntropyLoss"),
    ("cross-entropy", "from torch.nn.modules import loss\nm = loss.NLLLoss()"),
    ("cross-entropy", "import torch\ny = torch._C._nn.cross_entropy_loss(a, b)"),
    ("cross-entropy", "from torch._C import _nn\ny = _nn.nll_loss_nd(a, b)"),
    ("cross-entropy", "import torch\ny = torch.ops.aten.nll_loss_forward(a, b)"),
    ("cross-entropy", "import torch\nF = torch.nn.functional\ny = F.cross_entropy(a, b)"),
    ("cross-entropy", "from torch.nn.functional import *\ny = cross_entropy(a, b)"),
    ("cross-entropy", "import torch\nce = getattr(torch.nn.functional, 'cross_entropy')"),
    ("top-p", "from transformers import TopPLogitsWarper"),
    ("top-p", "import transformers as tf\nw = tf.TopKLogitsWarper(5)"),
    ("top-p", "from transformers.generation.logits_process import TopPLogitsWarper"),
    ("top-p", "from transformers import generation\nw = generation.TopPLogitsWarper(0.9)"),
    ("top-p", "from transformers import *\nw = TopPLogitsWarper(0.9)"),
    ("dpo-loss", "import trl"),
    ("dpo-loss", "from trl.trainer.dpo_trainer import DPOTrainer"),
])
def test_banned_paths_are_found(kata_id, source):
    assert static.banned_uses(__import__("ast").parse(source), catalog.get(kata_id).all_banned)


@pytest.mark.parametrize("kata_id,source", [
    ("cross-entropy", "import torch.nn.functional as F\nlp = F.log_softmax(x, -1)\nq = F.one_hot(t, 5)\ns = F.softplus(x)"),
    ("cross-entropy", "import torch\nlse = torch.logsumexp(x, -1)\ny = torch.gather(x, 1, t)"),
    ("top-p", "import torch\nv, i = torch.topk(x, 3)\ns = torch.sort(x)"),
    ("dpo-loss", "import torch.nn.functional as F\nl = F.logsigmoid(z)\nm = F.softplus(-z)"),
])
def test_allowed_building_blocks_are_not_flagged(kata_id, source):
    assert not static.banned_uses(__import__("ast").parse(source), catalog.get(kata_id).all_banned)


@pytest.mark.parametrize("name", ("float16", "bfloat16", "bfloat16_no_smoothing", "float16_all_ignored"))
def test_cross_entropy_half_cases_use_a_float32_reference_rounded_once(name):
    kata, spec = catalog.get("cross-entropy"), _spec("cross-entropy")
    case = _case("cross-entropy", name)
    a = case.inputs.args
    assert not case.inputs.grad_of, "half precision is forward only"
    [outcome] = spec.expected(kata, _reference(kata), case.inputs, CPU)
    assert outcome.value.dtype == a["logits"].dtype
    in_float32 = _reference(kata)(**{**a, "logits": a["logits"].float()})
    assert in_float32.dtype == torch.float32 and outcome.value == in_float32.to(a["logits"].dtype)
    wide = F.cross_entropy(a["logits"].double(), a["targets"], label_smoothing=a.get("label_smoothing", 0.0))
    wide = torch.nan_to_num(wide, nan=0.0)  # every row ignored: 0 by the contract
    ulp = 2.0 ** (-8 if a["logits"].dtype == torch.bfloat16 else -11)
    assert abs(float(outcome.value) - float(wide)) <= ulp * max(abs(float(wide)), 1e-30)


# ---------------------------------------------------------------- reports: a hint for a crash, top-p's cut


def test_a_negative_target_used_as_an_index_gets_a_hint():
    """-100 used as a column raises IndexError (advanced indexing) or RuntimeError (gather): no variant
    can name a file that only crashes, so the error itself says what to do."""
    for name in ("wrong_ignore_index_as_index.py", "wrong_ignore_index_gathered.py"):
        result = run_check(CORPUS / "cross_entropy" / name, "cross-entropy", seed=3, case="some_ignored")
        assert result.status is Status.ERROR
        message = result.failures()[0].error.message
        assert "index -100 is out of bounds" in message and "must be masked before indexing" in message, message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_top_p_draws_the_cut_of_the_first_failing_row(lang, monkeypatch):
    """"row 0: 2 tokens kept, expected 3" comes with the sorted probabilities, their running sum, both
    verdicts, and the crossing token marked; every line fits a 60-column report box."""
    from rich.cells import cell_len

    from checker.text import i18n
    from checker.specs.pictures.nucleus import nucleus_picture

    monkeypatch.setattr(i18n, "language", lambda: lang, raising=False)
    monkeypatch.setenv("KATA_LANG", lang)
    logits = [2.0, 1.0, 0.9, 0.5, -1.0, 0.0, -3.0, float("-inf")]
    # softmax sorted: 0.44, 0.16, 0.15, 0.10, 0.06, 0.02, ... ; top_p 0.7: the 3rd token crosses it
    expected = [True, True, True, False, False, False, False, False]
    got = [True, True, False, False, False, False, False, False]
    picture = nucleus_picture(logits, expected, got, 0, 0.7)
    lines = picture.split("\n")
    marked = [line for line in lines if "◀" in line and "0." in line.split("◀")[0]]
    assert len(marked) == 1 and "✗" in marked[0], picture
    assert all(cell_len(line) <= 56 for line in lines), picture
    assert "0.7" in lines[-1]


def test_top_p_report_of_the_crossing_token_dropped_shows_the_cut():
    result = run_check(CORPUS / "top_p" / "wrong_crossing_token_dropped.py", "top-p", seed=3, case="top_p_half")
    message = result.failures()[0].problems[0].message
    assert "tokens kept, expected" in message and "◀" in message and "✗" in message, message
