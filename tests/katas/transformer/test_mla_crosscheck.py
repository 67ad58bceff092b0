"""The mla reference against code nobody here wrote: transformers' `DeepseekV2Attention` (eager, default RoPE as its
complex `freqs_cis`, an additive causal mask) and `DeepseekV3Attention` with `rope_interleave=True` (DeepSeek's
checkpoints' pair order), the parameters loaded with `load_state_dict(strict=True)`; and the rotate-half pairing
(`rope_interleave=False`), which is a different function.

Figures measured here (torch 2.13 CPU, transformers 5.25; shared/KATAS-sequence.md's table, measured with 5.24, in
brackets), max |difference| / max(1, max|expected|) over 5 configurations (q_lora_rank None and set, H 1-4, d_r 2-8,
d_v != d_n, theta 100-5e5, L 5-16; float64 and float32, in both cases the module converted with .double() / .float()):
  vs DeepseekV2Attention, float32: output                      1.0e-07  [3.0e-07]
      gradients w.r.t. x and every parameter                    4.1e-07  [7.6e-07]
  vs DeepseekV2Attention, float64: output                      1.0e-07  [1.4e-07]
      gradients                                                 2.6e-07  [2.5e-07]
      (transformers rotates in float32 whatever the dtype: that rounding is the whole float64 error)
  vs DeepseekV3Attention(rope_interleave=True), float64         1.0e-07  [1.3e-07]
  vs DeepseekV3Attention(rope_interleave=False), float64        6.1e-02 to 1.2e-01 where d_r > 2  [5.4e-01]
      (6.2e-08 at d_r = 2: one pair, both pairings coincide)
`python tests/katas/transformer/test_mla_crosscheck.py` prints the measured errors.
"""
from __future__ import annotations

import pytest
import torch

from checker.specs import mla as spec
from checker.text import catalog
from tests.spec_support import reference_of

MLA = reference_of(catalog.get("mla"))  # loaded by path, never as `reference.*`

# (C, H, r, d_n, d_r, d_v, q_lora_rank, theta, L). d_n even: transformers 5.25's own float32 apply_rotary_emb raises
# "Tensor must have a stride divisible by 2" on the q_pe slice of an odd d_n (view_as_complex of a strided view)
CONFIGS = [
    (32, 4, 8, 4, 4, 4, None, 10000.0, 6),
    (24, 2, 6, 4, 2, 5, 8, 100.0, 16),
    (16, 1, 4, 2, 8, 3, None, 500000.0, 9),
    (40, 4, 10, 6, 6, 2, 12, 1000.0, 5),
    (36, 3, 12, 6, 4, 6, 10, 10000.0, 12),
]

DeepseekV2Config = DeepseekV2Attention = DeepseekV2RotaryEmbedding = None  # imported by _libraries
DeepseekV3Config = DeepseekV3Attention = DeepseekV3RotaryEmbedding = None


@pytest.fixture(autouse=True, scope="module")
def _libraries():
    """transformers, imported when this module's first test runs, not when pytest collects the suite."""
    global DeepseekV2Config, DeepseekV2Attention, DeepseekV2RotaryEmbedding
    global DeepseekV3Config, DeepseekV3Attention, DeepseekV3RotaryEmbedding
    pytest.importorskip("transformers")
    from transformers import DeepseekV2Config, DeepseekV3Config
    from transformers.models.deepseek_v2.modeling_deepseek_v2 import DeepseekV2Attention, DeepseekV2RotaryEmbedding
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention, DeepseekV3RotaryEmbedding


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _config(cls, C, H, r, d_n, d_r, d_v, q_lora, theta, **extra):
    config = cls(hidden_size=C, num_attention_heads=H, num_key_value_heads=H, kv_lora_rank=r, q_lora_rank=q_lora,
                 qk_nope_head_dim=d_n, qk_rope_head_dim=d_r, v_head_dim=d_v, attention_bias=False,
                 rope_parameters={"rope_type": "default", "rope_theta": theta}, max_position_embeddings=64, **extra)
    config._attn_implementation = "eager"
    return config


def _pair(version, dtype, cfg, seed, **extra):
    """(reference, library attention, its position embeddings for L positions), one set of random parameters."""
    C, H, r, d_n, d_r, d_v, q_lora, theta, L = cfg
    params = spec.weights(torch.Generator().manual_seed(seed), C, H, r, d_n, d_r, d_v, q_lora)
    ours = MLA(C, H, r, d_n, d_r, d_v, q_lora_rank=q_lora, rope_theta=theta)
    ours.load_state_dict(params, strict=True)
    if version == 2:
        config = _config(DeepseekV2Config, C, H, r, d_n, d_r, d_v, q_lora, theta)
        theirs, rotary = DeepseekV2Attention(config, 0), DeepseekV2RotaryEmbedding(config)
    else:
        config = _config(DeepseekV3Config, C, H, r, d_n, d_r, d_v, q_lora, theta, **extra)
        theirs, rotary = DeepseekV3Attention(config, 0), DeepseekV3RotaryEmbedding(config)
    theirs.load_state_dict(params, strict=True)
    convert = (lambda m: m.double()) if dtype == torch.float64 else (lambda m: m.float())  # noqa: E731
    ours, theirs = convert(ours), convert(theirs)
    x = torch.randn(2, L, C, generator=torch.Generator().manual_seed(seed + 100), dtype=dtype)
    position = rotary(x, torch.arange(L)[None])
    return ours, theirs, position, x


def _causal(L, dtype):
    return torch.full((L, L), float("-inf"), dtype=dtype).triu(1)[None, None]


def _rel(got, want):
    return float((got - want).detach().abs().max()) / max(1.0, float(want.detach().abs().max()))


def _errors(version, dtype, cfg, seed=0, grads=False, **extra):
    ours, theirs, position, x = _pair(version, dtype, cfg, seed, **extra)
    xa, xb = x.clone().requires_grad_(grads), x.clone().requires_grad_(grads)
    want = ours(xa)[0]
    mask = _causal(x.shape[1], dtype)
    got = (theirs(xb, attention_mask=mask, position_embeddings=position)[0] if version == 2 else
           theirs(xb, position_embeddings=position, attention_mask=mask)[0])
    errors = {"output": _rel(got, want)}
    if grads:
        probe = torch.randn(want.shape, generator=torch.Generator().manual_seed(seed + 7), dtype=dtype)
        (want * probe).sum().backward()
        (got * probe).sum().backward()
        g = [_rel(xb.grad, xa.grad)]
        theirs_params = dict(theirs.named_parameters())
        g += [_rel(theirs_params[n].grad, p.grad) for n, p in ours.named_parameters()]
        errors["gradients"] = max(g)
    return errors


@pytest.mark.parametrize("dtype,out_tol,grad_tol", [(torch.float32, 2e-6, 5e-6), (torch.float64, 1e-6, 1e-6)])
def test_the_reference_is_deepseek_v2_attention(dtype, out_tol, grad_tol):
    for i, cfg in enumerate(CONFIGS):
        errors = _errors(2, dtype, cfg, seed=i, grads=True)
        assert errors["output"] < out_tol and errors["gradients"] < grad_tol, (cfg, errors)


def test_the_reference_is_deepseek_v3_attention_with_interleaved_rope_and_not_rotate_half():
    for i, cfg in enumerate(CONFIGS):
        assert _errors(3, torch.float64, cfg, seed=i, rope_interleave=True)["output"] < 1e-6, cfg
        if cfg[4] > 2:  # d_r = 2: one pair, both pairings coincide
            assert _errors(3, torch.float64, cfg, seed=i, rope_interleave=False)["output"] > 1e-3, cfg


if __name__ == "__main__":
    from transformers import DeepseekV2Config, DeepseekV3Config  # noqa: F811
    from transformers.models.deepseek_v2.modeling_deepseek_v2 import DeepseekV2Attention, DeepseekV2RotaryEmbedding  # noqa: F811
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention, DeepseekV3RotaryEmbedding  # noqa: F811
    for dtype in (torch.float32, torch.float64):
        worst = [_errors(2, dtype, cfg, seed=i, grads=True) for i, cfg in enumerate(CONFIGS)]
        print("v2", dtype, max(e["output"] for e in worst), max(e["gradients"] for e in worst))
    print("v3 interleave", max(_errors(3, torch.float64, c, i, rope_interleave=True)["output"] for i, c in enumerate(CONFIGS)))
    print("v3 rotate-half", [_errors(3, torch.float64, c, i, rope_interleave=False)["output"] for i, c in enumerate(CONFIGS)])
