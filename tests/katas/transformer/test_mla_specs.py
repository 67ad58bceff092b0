"""mla's own rules: the contract's parameters for both query paths and the raising odd rope dim, a schedule of calls
equal to one causal pass (outputs and both caches), the cache being the normalised latent and the interleaved-rotated
key in pair order, the absorbed inference form and permute-then-rotate_half agreeing with the reference, a complex
freqs_cis buffer surviving `.double()` and not `.to(float64)` (decision 10), the given cache left alone with its
gradient reaching it, the suite's size and families, and each known mistake failing a named case on several seeds."""
from __future__ import annotations

import pytest
import torch

from checker.judge import spec as spec_api
from checker.judge.worker import load_entry
from checker.specs import mla as spec
from checker.text import catalog
from tests.namer import first_failing_named_case
from tests.spec_support import reference_of

KATA = catalog.get("mla")
MLA = reference_of(KATA)  # loaded by path, never as `reference.*`
DIMS = dict(hidden_size=24, num_heads=3, kv_lora_rank=6, qk_nope_head_dim=4, qk_rope_head_dim=4, v_head_dim=2)


def _loaded(cls=MLA, q_lora=None, theta=10000.0, seed=0, dtype=torch.float64, convert=None):
    module = cls(**DIMS, q_lora_rank=q_lora, rope_theta=theta)
    d = DIMS
    params = spec.weights(torch.Generator().manual_seed(seed), d["hidden_size"], d["num_heads"], d["kv_lora_rank"],
                          d["qk_nope_head_dim"], d["qk_rope_head_dim"], d["v_head_dim"], q_lora)
    module = (convert or (lambda m: spec_api.convert(m, dtype)))(module)
    spec_api.load_params(module, params)
    return module


def _x(L, dtype=torch.float64, seed=1):
    return torch.randn(2, L, DIMS["hidden_size"], generator=torch.Generator().manual_seed(seed), dtype=dtype)


def test_parameters_are_deepseek_v2_attentions_for_both_query_paths():
    shapes = lambda m: {k: tuple(v.shape) for k, v in m.named_parameters()}  # noqa: E731
    assert shapes(MLA(**DIMS)) == {"q_proj.weight": (24, 24), "kv_a_proj_with_mqa.weight": (10, 24),
                                   "kv_a_layernorm.weight": (6,), "kv_b_proj.weight": (18, 6), "o_proj.weight": (24, 6)}
    lora = MLA(**DIMS, q_lora_rank=5)
    assert shapes(lora) == {"q_a_proj.weight": (5, 24), "q_a_layernorm.weight": (5,), "q_b_proj.weight": (24, 5),
                            "kv_a_proj_with_mqa.weight": (10, 24), "kv_a_layernorm.weight": (6,),
                            "kv_b_proj.weight": (18, 6), "o_proj.weight": (24, 6)}
    assert spec._fresh_findings(lora, {**DIMS, "q_lora_rank": 5}) == ((), {})
    with pytest.raises((AssertionError, ValueError)):
        MLA(**{**DIMS, "qk_rope_head_dim": 3})


@pytest.mark.parametrize("q_lora", [None, 5])
def test_a_schedule_equals_one_causal_pass(q_lora):
    module = _loaded(q_lora=q_lora)
    x = _x(9)
    with torch.no_grad():
        want, (c_all, k_all) = module(x)
        outs, cache, s = [], None, 0
        for n in (5, 1, 1, 2):
            out, cache = module(x[:, s:s + n], cache)
            outs.append(out)
            s += n
    torch.testing.assert_close(torch.cat(outs, 1), want, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(cache[0], c_all, rtol=0, atol=1e-13)
    torch.testing.assert_close(cache[1], k_all, rtol=0, atol=1e-13)


def test_the_cache_is_the_normalised_latent_and_the_interleaved_rotated_key():
    module = _loaded(theta=100.0)
    x = _x(6)
    with torch.no_grad():
        _, (c_kv, k_pe) = module(x)
        latent, key = module.kv_a_proj_with_mqa(x).split([6, 4], -1)
    want_c = latent / latent.pow(2).mean(-1, keepdim=True).add(1e-6).sqrt() * module.kv_a_layernorm.weight
    torch.testing.assert_close(c_kv, want_c)
    p = torch.arange(6, dtype=torch.float64)[:, None]
    turn = torch.polar(torch.ones(6, 2, dtype=torch.float64), p * 100.0 ** (-torch.arange(0, 4, 2) / 4))
    want_k = torch.view_as_real(torch.view_as_complex(key.reshape(2, 6, 2, 2).contiguous()) * turn).reshape(2, 6, 4)
    torch.testing.assert_close(k_pe, want_k)


def test_the_absorbed_form_and_permute_rotate_half_are_the_same_module():
    x = _x(7)
    want = _loaded(q_lora=5)(x, None)
    for name in ("absorbed_freqs_cis", "permute_rotate_half"):
        cls = load_entry(KATA.content_dir / "solutions" / f"{name}.py", KATA.entry, f"test_mla_solution_{name}")
        got = _loaded(cls, q_lora=5)(x, None)
        torch.testing.assert_close(got[0], want[0], rtol=1e-5, atol=1e-6)
        for a, b in zip(got[1], want[1]):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_a_complex_freqs_cis_buffer_survives_double_but_not_to_float64():
    cls = load_entry(KATA.content_dir / "solutions" / "absorbed_freqs_cis.py", KATA.entry, "test_mla_solution_conv")
    x = _x(8)
    want = _loaded()(x)[0]
    right = _loaded(cls)(x)[0]
    with pytest.warns(UserWarning):
        wrong = _loaded(cls, convert=lambda m: m.to(torch.float64))(x)[0]
    assert (right - want).abs().max() < 1e-5
    assert (wrong - want).abs().max() > 1e-3


def test_a_given_cache_is_not_modified_and_gets_its_gradient():
    module = _loaded()
    x = _x(3)
    past = (torch.randn(2, 4, 6, dtype=torch.float64, requires_grad=True),
            torch.randn(2, 4, 4, dtype=torch.float64, requires_grad=True))
    before = [t.detach().clone() for t in past]
    out, (c_kv, k_pe) = module(x, past)
    assert c_kv.shape == (2, 7, 6) and k_pe.shape == (2, 7, 4)
    torch.testing.assert_close(c_kv[:, :4], past[0])
    out.sum().backward()
    assert all(torch.equal(t.detach(), b) for t, b in zip(past, before))
    assert all(t.grad is not None and t.grad.abs().sum() > 0 for t in past)


def test_the_float64_tolerance_is_llama_blocks_rule():
    case = spec_api.build_cases(spec, 1, "float64")[0]
    big = torch.full((3,), 40.0, dtype=torch.float64)
    assert spec.tolerance_for(case, "out of call 1", torch.float64, big) == (1e-5, 1e-5 * 40.0)
    assert spec.tolerance_for(case, "grad of x", torch.float32, big.float() / 80) == (1e-4, 1e-5)


def test_the_suite_has_over_100_cases_and_every_family_a_sentence():
    cases = spec_api.build_cases(spec, 1)
    assert len(cases) >= 100
    families = {f.name for f in spec.FAMILIES}
    for lang in ("en", "zh"):
        assert set(KATA.text(lang).families) == families, lang
    assert len({m.key for m in spec.MISTAKES}) >= 8
    small = [c for c in cases if c.inputs.raises is None]  # the cold check stays within 1.05x `import torch`
    assert all(c.inputs.args["x"].shape[1] <= 30 and c.inputs.init["num_heads"] <= 4
               and c.inputs.init["hidden_size"] <= 64 for c in small)


@pytest.mark.parametrize("mistake", spec.MISTAKES, ids=lambda m: m.key)
def test_every_known_mistake_fails_a_named_case(mistake):
    for seed in (0, 1, 2):
        assert first_failing_named_case(KATA, mistake.fn, seed) is not None, (mistake.key, seed)
