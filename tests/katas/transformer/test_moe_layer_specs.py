"""moe-layer's own rules: the contract's state_dict (Mixtral's names, each expert its own), the routing margin
every case keeps (so top-k on the logits or on the probabilities, in float32 or float64, picks the same experts),
what norm_topk_prob changes (decision 14: top-k-on-logits-then-softmax equals the renormalised layer only), the
accepted dispatches agreeing with the reference, a None gradient read as zeros, the fresh-module findings, the
suite's size and named families, and each known mistake failing a named case on several seeds."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.specs import moe_layer as spec
from checker.text import catalog
from tests.namer import first_failing_named_case
from tests.spec_support import reference_of

MoELayer = reference_of(catalog.get("moe-layer"))  # loaded by path, never as `reference.*`

KATA = catalog.get("moe-layer")
CPU = torch.device("cpu")


def _loaded(C, I, E, k, norm, seed=0):
    module = MoELayer(C, I, E, k, norm)
    spec_api.load_params(module, spec.weights(torch.Generator().manual_seed(seed), C, I, E))
    return module.double()


def _x(module, B, L, seed=0):
    g = torch.Generator().manual_seed(seed + 100)
    C = module.gate.weight.shape[1]
    return spec.routable_x(g, (B, L, C), module.gate.weight.detach(), module.top_k, torch.float64)


def test_state_dict_is_mixtrals_names_and_shapes():
    shapes = {k: tuple(v.shape) for k, v in MoELayer(6, 10, 3).state_dict().items()}
    assert shapes == spec.contract_shapes(6, 10, 3)
    assert shapes["gate.weight"] == (3, 6) and shapes["experts.2.w2.weight"] == (6, 10)


def test_every_case_keeps_the_routing_margin_and_top_k_on_logits_or_probabilities_agree():
    for case in spec_api.build_cases(spec, 3):
        if not case.inputs.params:
            continue
        x, gate, k = case.inputs.args["x"], case.inputs.params["gate.weight"], case.inputs.init.get("top_k", 2)
        assert not spec.short_rows(x, gate, k).any(), case.name
        logits32 = x.reshape(-1, x.shape[-1]).float() @ gate.T  # a float32 learner's router
        a = logits32.topk(k, dim=-1).indices.sort(-1).values
        b = torch.softmax(logits32.double(), -1).topk(k, dim=-1).indices.sort(-1).values
        assert torch.equal(a, b), case.name


def test_top_1_renormalised_is_the_expert_itself_and_raw_is_p_times_it():
    ren, raw = _loaded(8, 12, 4, 1, True), _loaded(8, 12, 4, 1, False)
    x = _x(ren, 2, 5)
    h = x.reshape(-1, 8)
    logits = h @ ren.gate.weight.T
    p, e = torch.softmax(logits, -1).max(-1)
    experts = torch.stack([ren.experts[int(i)](h[t]) for t, i in enumerate(e)])
    torch.testing.assert_close(ren(x)[0].reshape(-1, 8), experts, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(raw(x)[0].reshape(-1, 8), p[:, None] * experts, rtol=1e-12, atol=1e-12)


def test_topk_on_logits_then_softmax_is_the_renormalised_layer_only():
    """Decision 14: Mixtral's formula equals softmax-top-k-renormalise; with norm_topk_prob=False it differs."""
    for norm in (True, False):
        module = _loaded(8, 16, 6, 2, norm)
        x = _x(module, 2, 6)
        h = x.reshape(-1, 8)
        top_logits, chosen = (h @ module.gate.weight.T).topk(2, dim=-1)
        w = torch.softmax(top_logits, -1)
        mixtral = sum(w[:, j, None] * torch.stack([module.experts[int(i)](h[t]) for t, i in enumerate(chosen[:, j])])
                      for j in range(2))
        same = torch.allclose(module(x)[0].reshape(-1, 8), mixtral, rtol=1e-10, atol=1e-10)
        assert same == norm


def test_a_dense_form_and_k_equal_to_e_agree_with_the_expert_loop():
    module = _loaded(6, 10, 4, 2, True)
    x = _x(module, 3, 4)
    h = x.reshape(-1, 6)
    logits = module.gate(h)
    w, e = torch.softmax(logits, -1).topk(2, -1)
    mix = torch.zeros_like(logits).scatter(-1, e, w / w.sum(-1, keepdim=True))  # [T, E], zero off the top k
    dense = torch.einsum("te,tec->tc", mix, torch.stack([ex(h) for ex in module.experts], 1))
    torch.testing.assert_close(module(x)[0].reshape(-1, 6), dense, rtol=1e-12, atol=1e-12)
    full_ren, full_raw = _loaded(6, 10, 4, 4, True), _loaded(6, 10, 4, 4, False)
    torch.testing.assert_close(full_ren(x)[0], full_raw(x)[0], rtol=1e-12, atol=1e-12)


def test_an_expert_no_token_chose_has_no_gradient_in_the_loop_and_zeros_in_the_check():
    case = next(c for c in spec_api.build_cases(spec, 1) if c.name == "unused_experts")
    module = MoELayer(**case.inputs.init)
    spec_api.load_params(module, case.inputs.params)
    module(case.inputs.args["x"])[0].sum().backward()
    unused = [n for n, p in module.named_parameters() if p.grad is None]
    assert len(unused) >= 3 * 4  # six experts, two tokens, top-1: at least four experts idle
    outcome = spec.call(KATA, MoELayer, case.inputs, CPU)
    assert all(torch.equal(outcome.extras[f"grad of {n}"], torch.zeros_like(outcome.extras[f"grad of {n}"]))
               for n in unused)
    assert outcome.extras["grad of x"].abs().sum() > 0


@pytest.mark.parametrize("key,words", [("one_expert_shared", "same tensors as experts.0's"),
                                       ("gate_with_bias", "unexpected gate.bias")])
def test_the_fresh_module_check_says_what_the_state_dict_lacks(key, words):
    case = next(c for c in spec_api.build_cases(spec, 1) if c.name == "experts_4_top_2")
    variant = next(m.fn for m in spec.MISTAKES if m.key == key)
    got = spec.call(KATA, variant, case.inputs, CPU)
    (problem,) = spec.compare(KATA, case, [spec.call(KATA, MoELayer, case.inputs, CPU)], got)
    assert words in problem.message


def test_x_is_not_modified_and_the_outputs_keep_its_dtype():
    module = _loaded(8, 12, 4, 2, False)
    x = _x(module, 2, 3)
    before = x.clone()
    out, logits = module(x)
    assert torch.equal(x, before) and out.shape == (2, 3, 8) and logits.shape == (6, 4)
    assert out.dtype == logits.dtype == torch.float64


def test_the_suite_has_over_100_cases_and_every_family_a_sentence():
    cases = spec_api.build_cases(spec, 1)
    assert len(cases) >= 100
    families = {f.name for f in spec.FAMILIES}
    for lang in ("en", "zh"):
        assert set(KATA.text(lang).families) == families, lang
    assert len({m.key for m in spec.MISTAKES}) >= 8
    assert max(c.inputs.args["x"].shape[0] * c.inputs.args["x"].shape[1] for c in cases if c.inputs.params) <= 64


@pytest.mark.parametrize("mistake", spec.MISTAKES, ids=lambda m: f"{m.key}-{m.variant}" if m.variant else m.key)
def test_every_known_mistake_fails_a_named_case(mistake):
    for seed in (0, 1, 2):
        assert first_failing_named_case(KATA, mistake.fn, seed) is not None, (mistake.key, seed)
