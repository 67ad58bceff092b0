"""linear-attention's own rules: one call equals any chunking with the state threaded (token by token included),
the returned state is the sums through the last position, eps once after the dot product, no 1/√D, φ on q and k
only, the state handed in left as it was (under no_grad too), the float32 promise about `F.elu(x) + 1` on every
float32 case of three seeds, the suite's size and named families, and each known mistake failing a named case."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.specs import linear_attention as spec
from checker.text import catalog
from tests.namer import first_failing_named_case
from tests.spec_support import reference_of

ref = reference_of(catalog.get("linear-attention"))  # loaded by path, never as `reference.*`

KATA = catalog.get("linear-attention")


def _draw(B=2, H=3, L=11, D=4, Dv=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(B, H, L, d, generator=g, dtype=torch.float64) for d in (D, D, Dv)]


@pytest.mark.parametrize("chunks", [(11,), (1,) * 11, (3, 5, 2, 1), (6, 5)])
def test_any_chunking_with_the_state_threaded_equals_one_call(chunks):
    q, k, v = _draw()
    whole, (S, z) = ref(q, k, v)
    outs, state, start = [], None, 0
    for n in chunks:
        out, state = ref(q[:, :, start:start + n], k[:, :, start:start + n], v[:, :, start:start + n], state)
        outs.append(out)
        start += n
    torch.testing.assert_close(torch.cat(outs, 2), whole, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(state[0], S, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(state[1], z, rtol=1e-12, atol=1e-12)


def test_the_formula_at_one_token_with_eps_once_after_the_dot_and_no_scale():
    q, k, v = _draw(L=1)
    S0, z0 = torch.rand(2, 3, 4, 5, dtype=torch.float64), torch.rand(2, 3, 4, dtype=torch.float64)
    out, (S, z) = ref(q, k, v, (S0, z0), eps=0.5)
    fq, fk = F.elu(q[:, :, 0]) + 1, F.elu(k[:, :, 0]) + 1
    S_want = S0 + fk[..., :, None] * v[:, :, 0, None, :]
    z_want = z0 + fk
    want = (fq[..., :, None] * S_want).sum(-2) / ((fq * z_want).sum(-1, keepdim=True) + 0.5)
    torch.testing.assert_close(out[:, :, 0], want, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close((S, z), (S_want, z_want), rtol=1e-12, atol=1e-12)


def test_the_state_handed_in_is_left_as_it_was_even_under_no_grad():
    q, k, v = _draw(L=4)
    S0, z0 = torch.rand(2, 3, 4, 5, dtype=torch.float64), torch.rand(2, 3, 4, dtype=torch.float64)
    saved = (S0.clone(), z0.clone())
    with torch.no_grad():
        ref(q, k, v, (S0, z0))
    assert torch.equal(S0, saved[0]) and torch.equal(z0, saved[1])


def test_elu_plus_one_in_float32_is_within_half_the_tolerance_on_every_float32_case():
    for seed in (1, 2, 3):  # the generator asserts it while drawing
        assert len(spec_api.build_cases(spec, seed)) >= 100


def test_the_suite_has_the_contracts_families():
    names = {f.name for f in spec.FAMILIES}
    for family in ("d_ne_dv", "d_one", "dv_one", "one_token", "given_state", "given_state_one_token", "eps_one",
                   "eps_half_given_state", "inputs_scaled_by_4", "float64", "long_float64", "long_float32",
                   "prefill_then_decode", "token_by_token", "chunks_3_5_2_7", "given_state_then_decode",
                   "float64_token_by_token", "device", "random"):
        assert family in names
    assert len(spec_api.case_names(spec)) >= 100
    assert len(spec.MISTAKES) >= 8


@pytest.mark.parametrize("key", ["eps_ignored", "eps_inside_dot", "scaled_queries", "current_token_excluded",
                                 "state_ignored", "state_only_in_returned", "state_updated_in_place", "not_causal"])
def test_each_mistake_fails_a_named_case(key):
    variant = next(m for m in spec.MISTAKES if m.key == key)
    assert first_failing_named_case(KATA, variant.fn, seed=1) is not None
