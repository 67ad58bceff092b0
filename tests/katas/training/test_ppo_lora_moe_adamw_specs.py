"""The specs of ppo-loss, lora, moe-router and adamw: enough cases, edge cases that are what they say,
known mistakes that fail and are named, and each kata's own rule (PPO's None gradients, LoRA's
checks of the module as built, the router's tie rule, AdamW's chained steps, the banned names)."""
from __future__ import annotations

import ast
import copy
import importlib
import math

import pytest
import torch
import torch.nn as nn

from checker.text import catalog
from checker.judge import static
from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from tests.spec_support import (
    reference_of as _reference,
    roundtrip as _roundtrip,
)

KATAS = ("ppo-loss", "lora", "moe-router", "adamw")
CPU = torch.device("cpu")


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Thousands of tiny ops: on a busy machine a second intra-op thread costs more than it gives."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _kata(kata_id):
    kata = catalog.get(kata_id)
    return kata, importlib.import_module(kata.spec_module)


def _run(kata, spec, fn, case, expected=False):
    """fn on a copy of the case's inputs through the spec's hooks, as a child runs it (None if it raised)."""
    inputs = copy.deepcopy(case.inputs)
    try:
        if expected and hasattr(spec, "expected"):
            return _roundtrip(spec.expected(kata, fn, inputs, CPU)[0])
        hook = getattr(spec, "call", spec_api.call)
        return _roundtrip(hook(kata, fn, inputs, CPU, track_device=case.family.track_device))
    except Exception:  # noqa: BLE001 — a variant that raises fails the case
        return None


def _problems(kata, spec, case, expected, got):
    """As the engine judges: the spec's compare hook, else the generic comparison."""
    if got is None:
        return ["raised"]
    hook = getattr(spec, "compare", None)
    if hook is not None:
        custom = hook(kata, case, [expected], got)
        if custom is not None:
            return custom
    return compare_outcome(kata, spec, case, expected, got)


def _case(kata_id, name, seed=3):
    return spec_api.build_cases(_kata(kata_id)[1], seed, name)[0]


# ---------------------------------------------------------------- the families


@pytest.mark.parametrize("kata_id", KATAS)
def test_listed_under_training(kata_id):
    """The family's other rules hold for every kata: tests/katas/test_every_spec.py."""
    assert _kata(kata_id)[0].topic == "training"


@pytest.mark.parametrize("kata_id", KATAS)
def test_inputs_come_from_the_seed(kata_id):
    spec = _kata(kata_id)[1]

    def flat(cases):
        return [repr({k: (v.tolist() if isinstance(v, torch.Tensor) else v) for k, v in c.inputs.args.items()})
                for c in cases]

    a, b, c = (flat(spec_api.build_cases(spec, s)) for s in (5, 5, 6))
    assert a == b and a != c


@pytest.mark.parametrize("kata_id", KATAS)
@pytest.mark.parametrize("seed", (1, 2, 3, 4, 5, 6))
def test_the_reference_passes_its_own_cases(kata_id, seed):
    kata, spec = _kata(kata_id)
    ref = _reference(kata)
    for case in spec_api.build_cases(spec, seed):
        expected = _run(kata, spec, ref, case, expected=True)
        assert not _problems(kata, spec, case, expected, _run(kata, spec, ref, case)), case.name


def _ratio(args):
    return torch.exp(args["new_log_probs"] - args["old_log_probs"])


def test_ppo_edge_cases_are_what_they_say():
    for name, far_side, adv_sign in (("clipped_above", 1, 1), ("clipped_below", -1, -1),
                                     ("unclipped_above", 1, -1), ("unclipped_below", -1, 1)):
        args = _case("ppo-loss", name).inputs.args
        r = _ratio(args)
        assert ((r > 3) if far_side > 0 else (r < 0.3)).all() and (args["advantages"] * adv_sign > 0).all(), name
    mixed = _case("ppo-loss", "far_ratios_mixed.0").inputs.args
    assert (_ratio(mixed) > 3).any() and (_ratio(mixed) < 0.3).any()
    assert (mixed["advantages"] > 0).any() and (mixed["advantages"] < 0).any()
    assert torch.equal(_ratio(_case("ppo-loss", "new_equals_old").inputs.args), torch.ones(16))
    between = _case("ppo-loss", "values_far_returns_between").inputs.args
    lo = torch.minimum(between["values"], between["old_values"])
    hi = torch.maximum(between["values"], between["old_values"])
    assert ((between["returns"] >= lo) & (between["returns"] <= hi)).all()
    beyond = _case("ppo-loss", "values_far_returns_beyond").inputs.args
    assert ((beyond["returns"] - beyond["values"]) * (beyond["values"] - beyond["old_values"]) > 0).all()
    assert (beyond["values"] - beyond["old_values"]).abs().median() > 1.0
    assert _case("ppo-loss", "value_clip_none").inputs.args["value_clip"] is None
    for name in ("value_clip_wider", "value_clip_narrower"):
        args = _case("ppo-loss", name).inputs.args
        assert args["value_clip"] != args["clip_eps"], name
    assert _case("ppo-loss", "vf_coef_zero").inputs.args["vf_coef"] == 0.0
    assert _case("ppo-loss", "vf_coef_one").inputs.args["vf_coef"] == 1.0
    none = _case("ppo-loss", "entropy_none_ent_coef_set").inputs.args
    assert "entropy" not in none and none["ent_coef"] > 0
    assert _case("ppo-loss", "entropy_ent_coef_zero").inputs.args["ent_coef"] == 0.0
    assert _case("ppo-loss", "entropy_large_coef").inputs.args["entropy"].min() > 0
    assert _case("ppo-loss", "time_by_env").inputs.args["values"].shape == (8, 4)
    assert _case("ppo-loss", "one_sample").inputs.args["values"].shape == (1,)
    assert not _case("ppo-loss", "zero_advantages").inputs.args["advantages"].any()
    assert _case("ppo-loss", "float64").inputs.args["values"].dtype == torch.float64
    assert set(_case("ppo-loss", "defaults").inputs.args) == {"new_log_probs", "old_log_probs", "advantages", "values",
                                                              "old_values", "returns"}


def test_ppo_clipped_samples_pass_no_policy_gradient():
    kata, spec = _kata("ppo-loss")
    ref = _reference(kata)
    for name, zero in (("clipped_above", True), ("clipped_below", True), ("unclipped_above", False)):
        outcome = spec.call(kata, ref, copy.deepcopy(_case("ppo-loss", name).inputs), CPU)
        grad = outcome.extras["grad of new_log_probs"]
        assert bool((grad == 0).all()) == zero, name


def test_ppo_a_none_gradient_counts_as_zeros_but_a_cut_total_keeps_none():
    kata, spec = _kata("ppo-loss")
    ref = _reference(kata)

    def skipping(**args):  # leaves out the terms whose coefficient is 0: entropy and values get no gradient
        total, policy, value = ref(**{**args, "vf_coef": 0.5, "ent_coef": 0.0})
        return policy, policy, value

    inputs = _case("ppo-loss", "entropy_ent_coef_zero").inputs
    inputs.args["vf_coef"] = 0.0
    outcome = spec.call(kata, skipping, copy.deepcopy(inputs), CPU)
    for name in ("values", "entropy"):
        assert torch.equal(outcome.extras[f"grad of {name}"], torch.zeros_like(inputs.args[name]))
    expected = _run(kata, spec, ref, spec_api.Case("c", spec.FAMILIES[0], 3, inputs), expected=True)
    assert not compare_outcome(kata, spec, spec_api.Case("c", spec.FAMILIES[0], 3, inputs), expected,
                               _roundtrip(outcome))
    cut = spec.call(kata, lambda **a: tuple(t.detach() for t in ref(**a)), copy.deepcopy(inputs), CPU)
    assert cut.extras["grad of new_log_probs"] is None


def test_lora_edge_cases_are_what_they_say():
    init = lambda name: _case("lora", name).inputs.init  # noqa: E731
    assert init("rank_one")["r"] == 1
    assert init("rank_above_in_features")["r"] > init("rank_above_in_features")["in_features"]
    odd = init("alpha_over_r_not_integer")
    ratio = odd["alpha"] / odd["r"]
    assert ratio != odd["alpha"] // odd["r"] and ratio != odd["alpha"] / math.sqrt(odd["r"])
    assert init("square")["in_features"] == init("square")["out_features"]
    assert init("no_bias")["bias"] is False and "bias" not in _case("lora", "no_bias").inputs.params
    assert "r" not in init("defaults") and "alpha" not in init("defaults")
    dims = {name: _case("lora", name).inputs.args["x"].dim() for name in ("x_1d", "x_2d", "x_3d")}
    assert dims == {"x_1d": 1, "x_2d": 2, "x_3d": 3}
    assert _case("lora", "train_mode").inputs.train and not _case("lora", "eval_mode").inputs.train
    assert not _case("lora", "first_step_b_zero").inputs.params["lora_B"].any()
    assert _case("lora", "defaults").inputs.params["lora_B"].abs().min() > 0
    half = _case("lora", "float16").inputs
    assert half.args["x"].dtype == torch.float16 and half.probe is None and not half.grad_of


def test_moe_edge_cases_are_what_they_say():
    from checker.specs.moe_router import _has_ties

    def args(name):
        return _case("moe-router", name).inputs.args

    assert args("k_one")["k"] == 1 and args("k_three")["k"] == 3 and "k" not in args("k_default")
    assert args("k_equals_experts")["k"] == args("k_equals_experts")["router_logits"].shape[1]
    assert args("two_experts")["router_logits"].shape[1] == 2 and args("one_token")["router_logits"].shape[0] == 1
    assert (args("large_logits")["router_logits"] > 9000).all()
    for name in ("all_logits_equal", "ties_inside_top_k", "ties_at_kth_place", "peaked_rows"):
        a = args(name)
        assert _has_ties(a["router_logits"], a["k"]), name
        assert _case("moe-router", name).inputs.probe is None, "cases with ties compare no gradient"
    peaked = args("peaked_rows")["router_logits"]
    assert (torch.softmax(peaked, -1) == 0).sum(-1).min() >= 2, "the others' probabilities underflow in float32"
    inside = args("ties_inside_top_k")["router_logits"].sort(-1, descending=True).values
    assert (inside[:, 0] == inside[:, 1]).all() and (inside[:, 1] > inside[:, 2]).all()
    cut = args("ties_at_kth_place")["router_logits"].sort(-1, descending=True).values
    assert (cut[:, 1] == cut[:, 2]).all() and (cut[:, 0] > cut[:, 1]).all()
    for name in ("float16", "bfloat16", "bfloat16_k_three"):
        logits = args(name)["router_logits"]
        gaps = logits.float().sort(-1).values.diff(dim=-1)
        assert gaps.min() >= 0.05 and logits.float().abs().max() < 4, name
        assert _case("moe-router", name).inputs.probe is None
    collapsed = args("collapsed_router")["router_logits"]
    assert (collapsed.argmax(-1) == 0).all()
    for case in spec_api.build_cases(_kata("moe-router")[1], 3):
        a = case.inputs.args
        tie_free = not _has_ties(a["router_logits"], a.get("k", 2))
        half = a["router_logits"].dtype in (torch.float16, torch.bfloat16)
        assert (case.inputs.probe is not None) == (tie_free and not half), case.name


def test_adamw_edge_cases_are_what_they_say():
    def args(name):
        return _case("adamw", name).inputs.args

    one = args("step_one")
    assert one["step"] == 1 and not one["exp_avg"].any() and not one["exp_avg_sq"].any()
    assert args("step_two")["step"] == 2 and args("step_thousand")["step"] == 1000
    assert args("step_two")["exp_avg_sq"].min() > 0
    assert all(isinstance(_case("adamw", n).inputs.args["step"], int) for n in spec_api.case_names(_kata("adamw")[1]))
    assert args("weight_decay_zero")["weight_decay"] == 0.0
    large = args("large_lr_weight_decay")
    assert large["lr"] == 0.1 and large["weight_decay"] == 0.5
    assert args("tiny_gradients")["grad"].abs().max() < 1e-7
    assert not args("zero_gradients")["grad"].any() and args("zero_gradients")["exp_avg"].any()
    assert args("beta1_zero")["betas"][0] == 0.0 and args("beta2_zero")["betas"][1] == 0.0
    assert args("lr_zero")["lr"] == 0.0 and args("large_eps")["eps"] == 1e-2
    assert args("scalar_param")["param"].dim() == 0 and args("param_3d")["param"].dim() == 3
    assert args("float64")["param"].dtype == torch.float64
    assert set(args("defaults_only")) == {"param", "grad", "exp_avg", "exp_avg_sq", "step"}


# ---------------------------------------------------------------- known mistakes


# Mistakes that by construction show only on an edge, not on typical random draws (with the reason).
ONLY_ON_EDGES = {
    "ppo-loss": set(),
    "lora": {"bias_always"},  # only with bias=False
    "moe-router": set(),
    "adamw": {"eps_inside_sqrt", "eps_outside_bias_correction"},  # only where gradients are ~eps
}


@pytest.mark.parametrize("kata_id", KATAS)
def test_every_kata_declares_at_least_seven_distinct_mistakes(kata_id):
    """(That each fails, and is named as itself, is tests/katas/test_mistakes_named.py's.)"""
    kata, spec = _kata(kata_id)
    assert len(spec.MISTAKES) >= 7 and len({m.key for m in spec.MISTAKES}) == len(spec.MISTAKES)


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_reference_matches_none_of_its_mistakes_on_random_cases(kata_id):
    kata, spec = _kata(kata_id)
    ref = _reference(kata)
    cases = [c for c in spec_api.build_cases(spec, 2) if c.family.name == "random"]
    expected = {c.name: _run(kata, spec, ref, c, expected=True) for c in cases}
    for mistake in spec.MISTAKES:
        failing = sum(bool(_problems(kata, spec, c, expected[c.name], _run(kata, spec, mistake.fn, c))) for c in cases)
        if mistake.key in ONLY_ON_EDGES[kata_id]:
            assert failing < len(cases), mistake.key
            continue
        assert failing >= math.ceil(0.1 * len(cases)), f"{kata_id}: '{mistake.key}' fails only {failing} random cases"


# ---------------------------------------------------------------- moe-router: any tie-break is right


def _judge_moe(case, weights, experts, aux):
    kata, spec = _kata("moe-router")
    expected = _run(kata, spec, _reference(kata), case, expected=True)
    got = _roundtrip(spec_api.Outcome((weights, experts, aux)))
    return spec.compare(kata, case, [expected], got)


def _answer(logits, experts):
    """The right weights and aux_loss for a given choice of experts."""
    T, E = logits.shape
    p = torch.softmax(logits.double(), -1)
    chosen = p.gather(-1, experts)
    f = torch.zeros(T, E, dtype=torch.float64).scatter(-1, experts, 1.0).mean(0)
    return (chosen / chosen.sum(-1, keepdim=True)).to(logits.dtype), experts, (E * (f * p.mean(0)).sum()).to(logits.dtype)


def test_moe_tie_rule_accepts_every_valid_tie_break():
    case = _case("moe-router", "ties_at_kth_place")  # k = 2: the 2nd and 3rd logits tied in every row
    logits = case.inputs.args["router_logits"]
    order = logits.sort(dim=-1, descending=True, stable=True).indices
    for pick in ((0, 1), (0, 2)):  # either tied expert at the cut
        experts = order[:, list(pick)].contiguous()
        assert _judge_moe(case, *_answer(logits, experts)) == [], pick
    mixed = torch.where(torch.arange(len(order))[:, None] % 2 == 0, order[:, [0, 1]], order[:, [0, 2]])
    assert _judge_moe(case, *_answer(logits, mixed)) == [], "row by row, any tied expert"
    inside = _case("moe-router", "ties_inside_top_k")  # k = 3, the two largest tied: either order
    logits = inside.inputs.args["router_logits"]
    order = logits.sort(dim=-1, descending=True, stable=True).indices
    for columns in ([0, 1, 2], [1, 0, 2]):
        assert _judge_moe(inside, *_answer(logits, order[:, columns].contiguous())) == [], columns
    equal = _case("moe-router", "all_logits_equal")
    T, E = equal.inputs.args["router_logits"].shape
    g = torch.Generator().manual_seed(0)
    anyk = torch.stack([torch.randperm(E, generator=g)[:2] for _ in range(T)])
    w, ex, aux = _answer(equal.inputs.args["router_logits"], anyk)
    assert float(aux) == pytest.approx(2.0) and _judge_moe(equal, w, ex, aux) == []
    peaked = _case("moe-router", "peaked_rows")
    logits = peaked.inputs.args["router_logits"]
    top = logits.argmax(-1, keepdim=True)
    other = (top + 1 + torch.randint(logits.shape[1] - 1, top.shape, generator=g)) % logits.shape[1]
    assert _judge_moe(peaked, *_answer(logits, torch.cat([top, other], -1))) == [], "any expert whose p underflows"


def test_moe_tie_rule_rejects_the_rest():
    case = _case("moe-router", "ties_at_kth_place")
    logits = case.inputs.args["router_logits"]
    order = logits.sort(dim=-1, descending=True, stable=True).indices
    right = order[:, [0, 1]].contiguous()
    w, ex, aux = _answer(logits, right)

    def rejected(weights, experts, loss, item):
        problems = _judge_moe(case, weights, experts, loss)
        assert problems and any(p.item == item for p in problems), (item, problems)

    rejected(*_answer(logits, order[:, [0, 3]].contiguous()), "experts")  # a less probable expert than a tied one
    rejected(*_answer(logits, order[:, [1, 0]].contiguous()), "experts")  # not in non-increasing order
    rejected(w, order[:, [0, 0]].contiguous(), aux, "experts")  # the same expert twice
    rejected(w, torch.full_like(right, logits.shape[1]), aux, "experts")  # outside [0, E)
    rejected(logits.softmax(-1).gather(-1, right), ex, aux, "weights")  # not renormalised
    other = order[:, [0, 2]].contiguous()
    rejected(_answer(logits, other)[0], other, aux, "aux_loss")  # aux from another choice than the one returned
    rejected(w, ex, aux / logits.shape[1], "aux_loss")  # without E
    rejected(w.double(), ex, aux, "weights")  # the wrong dtype
    rejected(w, ex.to(torch.int32), aux, "experts")


# ---------------------------------------------------------------- lora: the module as built


class _Good(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.1, requires_grad=False)
        self.bias = nn.Parameter(torch.zeros(out_features), requires_grad=False) if bias else None
        self.lora_A = nn.Parameter(torch.randn(r, in_features) * 0.1)
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        self.scaling = alpha / r

    def forward(self, x):
        out = x @ self.weight.T + (self.bias if self.bias is not None else 0)
        return out + self.scaling * (x @ self.lora_A.T) @ self.lora_B.T


def _variant(**changes):
    class Variant(_Good):
        def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
            super().__init__(in_features, out_features, r, alpha, bias)
            for name, change in changes.items():
                change(self, name)
    return Variant


def _lora_findings(cls, name="defaults"):
    kata, spec = _kata("lora")
    case = _case("lora", name)
    expected = _run(kata, spec, _reference(kata), case, expected=True)
    got = _roundtrip(spec.call(kata, cls, copy.deepcopy(case.inputs), CPU))
    return [p for p in spec.compare(kata, case, [expected], got) if p.item == spec.FRESH], expected, got


def _set(value_fn):
    return lambda module, name: setattr(module, name, value_fn(module))


@pytest.mark.parametrize(("changes", "family", "words"), [
    ({"lora_B": _set(lambda m: nn.Parameter(torch.randn_like(m.lora_B)))}, "defaults", "lora_B is not zero"),
    ({"lora_A": _set(lambda m: nn.Parameter(torch.zeros_like(m.lora_A)))}, "defaults", "lora_A is constant"),
    ({"weight": _set(lambda m: nn.Parameter(m.weight.detach().clone()))}, "defaults", "weight requires grad"),
    ({"weight": _set(lambda m: nn.Parameter(torch.full_like(m.weight, math.nan), requires_grad=False))}, "defaults",
     "holds inf or NaN"),
    ({"lora_B": lambda m, n: (delattr(m, n), m.register_buffer(n, torch.zeros(m.weight.shape[0], 8)))}, "defaults",
     "lora_B is not a trainable"),
    ({"scaling": lambda m, n: (delattr(m, n), m.register_parameter(n, nn.Parameter(torch.tensor(2.0))))}, "defaults",
     "parameters are weight, bias, lora_A, lora_B, scaling"),
    ({"lora_A": _set(lambda m: nn.Parameter(torch.randn(m.lora_A.shape[1], m.lora_A.shape[0])))}, "defaults",
     "lora_A has shape (16, 8), expected (8, 16)"),
    ({"extra": lambda m, n: setattr(m, "bias", torch.zeros(m.weight.shape[0]))}, "no_bias", "self.bias must be None"),
    ({"forward": lambda m, n: setattr(m, "shift", 1e-3)}, "defaults", "is not F.linear(x, weight, bias)"),
])
def test_lora_checks_of_the_module_as_built_bite(changes, family, words):
    cls = _variant(**changes)
    if "forward" in changes:
        cls.forward = lambda self, x: _Good.forward(self, x) + self.shift
    found, _, _ = _lora_findings(cls, family)
    assert any(words in p.message for p in found), [p.message for p in found]


def test_a_buffer_the_contract_does_not_name_is_the_modules_own():
    """The module protocol: a scaling kept as a (persistent) buffer is neither compared nor loaded, and a frozen
    weight kept as a buffer is loaded by name."""
    scaling = _variant(scaling=lambda m, n: (delattr(m, n), m.register_buffer(n, torch.tensor(2.0, dtype=torch.float64))))
    assert _lora_findings(scaling)[0] == []
    frozen = _variant(weight=lambda m, n: (delattr(m, n), m.register_buffer(n, torch.randn(m.lora_B.shape[0], m.lora_A.shape[1]))))
    found, expected, got = _lora_findings(frozen)
    assert found == [] and torch.allclose(got.value.data, expected.value.data)


def test_lora_a_right_module_has_no_findings_and_a_trainable_base_gets_a_gradient_finding():
    found, expected, got = _lora_findings(_Good)
    assert found == [] and got.extras["fresh module"] == ()
    assert set(expected.extras) == {"fresh module", "grad of x", "grad of lora_A", "grad of lora_B"}
    trainable = _variant(weight=_set(lambda m: nn.Parameter(m.weight.detach().clone())))
    messages = " | ".join(p.message for p in _lora_findings(trainable)[0])
    assert "weight requires grad" in messages and "weight received a gradient" in messages


def test_lora_fresh_checks_do_not_need_nn_linears_init():
    # A buffer base with a Gaussian A passes; the checks are about what the contract says, not one init.
    class Buffers(_Good):
        def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
            super().__init__(in_features, out_features, r, alpha, bias)
            w = self.weight.detach().clone()
            del self.weight
            self.register_buffer("weight", w)

    assert _lora_findings(Buffers)[0] == []


# ---------------------------------------------------------------- adamw: chained steps


def test_adamw_chains_ten_steps_on_the_learners_own_outputs():
    kata, spec = _kata("adamw")
    ref = _reference(kata)
    case = _case("adamw", "chained_ten_steps")
    outcome = spec.call(kata, ref, copy.deepcopy(case.inputs), CPU)
    assert set(outcome.extras) == {f"{n} after step {s}" for n in ("param", "exp_avg", "exp_avg_sq")
                                   for s in range(2, 11)}
    # The chain is the same as running the reference by hand with the same gradients.
    a = case.inputs.args
    g = torch.Generator().manual_seed(case.inputs.show[spec.GRAD_SEED])
    state = ref(**a)
    for step in range(2, 11):
        grad = (case.inputs.show["gscale"] * torch.randn(a["param"].shape, generator=g, dtype=torch.float64)).float()
        state = ref(**{**a, "param": state[0], "grad": grad, "exp_avg": state[1], "exp_avg_sq": state[2], "step": step})
    assert torch.equal(outcome.extras["param after step 10"], state[0])

    # A learner right on the first step but ignoring the state it is given fails only later steps.
    def forgets(param, grad, exp_avg, exp_avg_sq, step, **kw):
        return ref(param, grad, torch.zeros_like(exp_avg), torch.zeros_like(exp_avg_sq), 1, **kw)

    expected = _run(kata, spec, ref, case, expected=True)
    problems = _problems(kata, spec, case, expected, _run(kata, spec, forgets, case))
    assert problems and all("after step" in p.item for p in problems)
    assert {p.item for p in problems} >= {"param after step 10", "exp_avg after step 2"}


def test_adamw_tolerance_resolves_the_update():
    kata, spec = _kata("adamw")
    case = _case("adamw", "step_two")
    rtol, atol = spec_api.tolerance(spec, case, torch.float32, "param", case.inputs.args["param"])
    lr = 1e-3
    assert rtol * 1.0 + atol < 0.05 * lr, "a 5% error in an update of lr must not pass"


# ---------------------------------------------------------------- banned names


def _banned(kata_id, source):
    kata = catalog.get(kata_id)
    return static.banned_uses(ast.parse(source), kata.all_banned)


@pytest.mark.parametrize("source", [
    "import torch\nopt = torch.optim.AdamW([])",
    "from torch.optim import AdamW",
    "from torch.optim import Adam as A",
    "from torch import optim\noptim.AdamW",
    "import torch.optim as O",
    "from torch.optim.adamw import adamw",
    "import torch.optim.adamw as f",
    "import torch\ntorch._fused_adamw_([], [], [], [], [], [])",
    "import torch\ntorch.ops.aten._fused_adamw_",
])
def test_adamw_bans_torch_optim_through_any_path(source):
    assert _banned("adamw", source), source


@pytest.mark.parametrize("source", [
    "from transformers.models.mixtral.modeling_mixtral import load_balancing_loss_func",
    "import transformers.models.mixtral.modeling_mixtral as mm",
    "import transformers\nf = transformers.models.mixtral.modeling_mixtral.load_balancing_loss_func",
    "from transformers.models.qwen2_moe import modeling_qwen2_moe",
    "from transformers import SwitchTransformersTop1Router",
    "import transformers as T\nT.NllbMoeTop2Router",
])
def test_moe_router_bans_transformers_routers(source):
    assert _banned("moe-router", source), source


@pytest.mark.parametrize(("kata_id", "source"), [
    ("moe-router", "import torch\nimport torch.nn.functional as F\nF.one_hot\ntorch.topk"),
    ("lora", "import peft\nfrom peft.tuners.lora import Linear"),
    ("ppo-loss", "import torch\ntorch.clamp\ntorch.maximum"),
    ("adamw", "import torch\ntorch.lerp\ntorch._foreach_addcdiv_"),
])
def test_what_stays_allowed(kata_id, source):
    assert _banned(kata_id, source) == []
