"""The rope, swiglu and flash-attention references against code nobody here wrote: Hugging Face's
LLaMA rotary embedding and MLP, and PyTorch's fused attention with both causal alignments.

Test-only dependency: `pip install -e '.[dev,crosscheck]'`. Run with `-s` to see the figures that
shared/KATAS.md's agreement table quotes (each test prints its worst error)."""
from __future__ import annotations


import pytest
import torch
import torch.nn.functional as F

from checker.text import catalog
from checker.judge.results import Status
from checker.judge.spec import TOLERANCES
from checker.specs import rope as rope_spec
from checker.specs.swiglu import weights
from checker.judge.worker import load_entry
from tests.conftest import run_check


causal_lower_right = transformers = LlamaConfig = LlamaMLP = LlamaRotaryEmbedding = apply_rotary_pos_emb = None  # imported by _libraries, below


@pytest.fixture(autouse=True, scope="module")
def _libraries():
    """transformers and torch.nn.attention, imported when this module's first test runs rather than when pytest
    collects the suite: a test process that imports it at collection is ~100-200 MB larger for all of its ~900 real
    checks, and each of them forks it (the suite runs these modules last: tests/conftest.py)."""
    global causal_lower_right, transformers, LlamaConfig, LlamaMLP, LlamaRotaryEmbedding, apply_rotary_pos_emb
    from torch.nn.attention.bias import causal_lower_right
    transformers = pytest.importorskip("transformers")
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaMLP, LlamaRotaryEmbedding, apply_rotary_pos_emb


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_{kata.module}")


def _draw(seed, *shape, dtype=torch.float64):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)


# ---------------------------------------------------------------- rope


def _hf_rope(x, start_pos, base):
    """transformers' LLaMA rotary embedding applied to x [B, H, L, D] (float32 angles, whatever x's dtype)."""
    B, H, L, D = x.shape
    config = LlamaConfig(hidden_size=H * D, num_attention_heads=H, rope_theta=base, max_position_embeddings=8192)
    rotary = LlamaRotaryEmbedding(config)
    position_ids = torch.arange(start_pos, start_pos + L).unsqueeze(0).expand(B, L)
    cos, sin = rotary(x, position_ids)  # (B, L, D) each, in x's dtype
    rotated, _ = apply_rotary_pos_emb(x, x, cos, sin)  # unsqueeze_dim=1: heads are dim 1
    return rotated


ROPE_GRID = [(D, base, start_pos) for D in (16, 64, 128) for base in (100.0, 10000.0, 500000.0) for start_pos in (0, 7, 1000, 4000)]


@pytest.mark.parametrize("D,base,start_pos", ROPE_GRID)
def test_rope_matches_llama_rotary_embedding_within_the_grown_tolerance(D, base, start_pos):
    x = _draw(D + start_pos, 2, 3, 3, D, dtype=torch.float32)
    ours, theirs = _reference("rope")(x, start_pos, base), _hf_rope(x, start_pos, base)
    error = float((ours.double() - theirs.double()).abs().max())
    span, size = start_pos + x.shape[2], max(1.0, float(x.abs().max()))
    rtol, atol = TOLERANCES[torch.float32]
    torch.testing.assert_close(theirs, ours, rtol=rtol, atol=(atol + rope_spec.PER_POSITION * span) * size)
    print(f"rope vs LlamaRotaryEmbedding D={D} base={base:g} start_pos={start_pos}: max abs error {error:.2g}, "
          f"per position·max|x| {error / (span * size):.2g}")
    assert error / (span * size) < 1e-7


def test_rope_float64_input_meets_float32_angles_within_the_tolerance():
    x = _draw(3, 1, 2, 8, 64)
    ours, theirs = _reference("rope")(x, 4000), _hf_rope(x, 4000, 10000.0)
    error = float((ours - theirs).abs().max())
    span, size = 4008, max(1.0, float(x.abs().max()))
    rtol, atol = TOLERANCES[torch.float64]
    print(f"rope float64 at 4000 vs LlamaRotaryEmbedding (float32 angles): {error:.2g}")
    assert error > atol  # the plain float64 tolerance would reject Hugging Face's answer …
    torch.testing.assert_close(theirs, ours, rtol=rtol, atol=(atol + rope_spec.PER_POSITION * span) * size)  # … the grown one does not


def test_interleaved_is_rotate_half_under_a_permutation_of_the_features():
    """Both pairings are RoPE: Meta's interleaved (2i, 2i+1) equals rotate-half on features permuted so
    that 2i -> i and 2i+1 -> i + D/2, and they differ on the same unpermuted input."""
    D = 16
    x = _draw(5, 1, 2, 6, D)
    perm = torch.cat([torch.arange(0, D, 2), torch.arange(1, D, 2)])  # new feature j takes old feature perm[j]
    interleaved = next(m.fn for m in rope_spec.MISTAKES if m.key == "interleaved_pairing")
    ours = _reference("rope")(x[..., perm], 37)
    torch.testing.assert_close(ours[..., torch.argsort(perm)], interleaved(x, 37), rtol=1e-12, atol=1e-12)
    difference = float((_reference("rope")(x, 37) - interleaved(x, 37)).abs().max())
    print(f"rope: interleaved vs rotate-half on the same input differ by {difference:.2g}")
    assert difference > 1.0


RIGHT_ON_TRANSFORMERS = '''# kata: rope
import torch
from transformers import LlamaConfig
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb



def apply_rope(x, start_pos=0, base=10000.0):
    B, H, L, D = x.shape
    config = LlamaConfig(hidden_size=H * D, num_attention_heads=H, rope_theta=base)
    rotary = LlamaRotaryEmbedding(config).to(x.device)
    position_ids = torch.arange(start_pos, start_pos + L, device=x.device).unsqueeze(0).expand(B, L)
    cos, sin = rotary(x, position_ids)
    out, _ = apply_rotary_pos_emb(x, x, cos, sin)
    return out
'''


def test_a_rope_built_on_transformers_passes_the_kata(tmp_path):
    """Decision 4: nothing is banned, and Hugging Face's own code meets the contract (float32 angles)."""
    path = tmp_path / "rope.py"
    path.write_text(RIGHT_ON_TRANSFORMERS)
    result = run_check(path, "rope", seed=3, timeout=240)
    failures = [(c.name, c.problems, c.error) for c in result.failures()]
    assert not failures and len(result.cases) >= 100, (result.message, failures[:2])


def test_a_rope_built_on_transformers_passes_the_device_family(tmp_path):
    path = tmp_path / "rope.py"
    path.write_text(RIGHT_ON_TRANSFORMERS)
    result = run_check(path, "rope", seed=3, case="device", timeout=240)
    assert result.status is Status.PASS, [(c.name, c.error) for c in result.failures()]


# ---------------------------------------------------------------- swiglu


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("dim,hidden", [(8, 16), (24, 64), (16, 6)])
def test_swiglu_matches_llama_mlp(dtype, dim, hidden):
    params = weights(torch.Generator().manual_seed(dim * hidden), dim, hidden)
    ours = _reference("swiglu")(dim, hidden)
    ours.load_state_dict(params)
    config = LlamaConfig(hidden_size=dim, intermediate_size=hidden, hidden_act="silu", mlp_bias=False,
                         num_attention_heads=1, num_key_value_heads=1)
    theirs = LlamaMLP(config)
    theirs.load_state_dict({"gate_proj.weight": params["w1.weight"], "up_proj.weight": params["w3.weight"],
                            "down_proj.weight": params["w2.weight"]})
    ours, theirs = ours.to(dtype), theirs.to(dtype)
    x = _draw(7, 3, 5, dim, dtype=dtype)
    with torch.no_grad():
        error = float((ours(x) - theirs(x)).abs().max())
    print(f"swiglu vs LlamaMLP {dtype} dim={dim} hidden={hidden}: {error:.2g}")
    rtol, atol = TOLERANCES[dtype]
    with torch.no_grad():
        torch.testing.assert_close(ours(x), theirs(x), rtol=rtol, atol=atol)


# ---------------------------------------------------------------- flash-attention


@pytest.mark.parametrize("Lq,Lk,causal,block", [(16, 40, False, 8), (24, 24, True, 5), (5, 37, True, 8), (1, 50, True, 16),
                                                (30, 12, False, 64), (37, 53, True, 16)])
def test_flash_matches_fused_attention_with_bottom_right_causal(Lq, Lk, causal, block):
    q, k, v = _draw(1, 2, 3, Lq, 8), _draw(2, 2, 3, Lk, 8), _draw(3, 2, 3, Lk, 5)
    ours = _reference("flash-attention")(q, k, v, block_size=block, causal=causal)
    mask = causal_lower_right(Lq, Lk) if causal else None
    theirs = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    error = float((ours - theirs).abs().max())
    print(f"flash vs scaled_dot_product_attention Lq={Lq} Lk={Lk} causal={causal} (lower right) block={block}: {error:.2g}")
    torch.testing.assert_close(ours, theirs, rtol=1e-12, atol=1e-12)
    if causal and Lq == Lk:  # bottom-right and PyTorch's top-left is_causal coincide on a square
        torch.testing.assert_close(ours, F.scaled_dot_product_attention(q, k, v, is_causal=True), rtol=1e-12, atol=1e-12)


def test_top_left_is_a_different_function_when_lq_lt_lk():
    q, k, v = _draw(4, 1, 2, 5, 8), _draw(5, 1, 2, 37, 8), _draw(6, 1, 2, 37, 8)
    ours = _reference("flash-attention")(q, k, v, block_size=8, causal=True)
    top_left = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert float((ours - top_left).abs().max()) > 0.1


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_flash_half_within_tolerance_of_fused_attention_in_float32(dtype):
    q, k, v = (_draw(s, 2, 2, 16, 8).to(dtype) for s in (7, 8, 9))
    ours = _reference("flash-attention")(q, k, v, block_size=4, causal=True)
    theirs = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=True).to(dtype)
    error = float((ours.float() - theirs.float()).abs().max())
    print(f"flash {dtype} vs scaled_dot_product_attention in float32: {error:.2g}")
    rtol, atol = TOLERANCES[dtype]
    torch.testing.assert_close(ours, theirs, rtol=rtol, atol=atol)
