"""The gqa and kv-cache references against code nobody here wrote: transformers' LlamaAttention
(eager, RoPE neutralised with cos = 1 and sin = 0, an additive -inf mask) and its repeat_kv, and
PyTorch's fused attention with enable_gqa and with is_causal.

Figures measured here (torch 2.13 CPU, transformers 5.24, float64; shared/KATAS.md's table in brackets):
  gqa vs LlamaAttention, out and weights, H/H_kv = 4/2, 6/3, 4/1, 3/3, 5 masks   5.0e-08  [<= 5.6e-08]
      gradients w.r.t. x and every weight                                        4.5e-07
      (transformers computes the softmax in float32: that rounding is the whole error)
  gqa vs F.scaled_dot_product_attention(enable_gqa=True), out and weights        4.4e-16  [<= 2.2e-16]
  transformers repeat_kv vs repeat_interleave                                    0        [0]
  kv-cache 5 + 1 + 1 + 2 vs one F.scaled_dot_product_attention(is_causal=True)   1.1e-16  [1.7e-16]
      final caches vs the full pass                                              4.4e-16  [4.4e-16]
`python tests/katas/transformer/test_gqa_kv_cache_crosscheck.py` prints the measured errors.
"""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from checker.text import catalog
from checker.specs._attention import causal, linear_params, random_mask
from checker.judge.worker import load_entry


transformers = LlamaConfig = LlamaAttention = repeat_kv = None  # imported by _libraries, below


@pytest.fixture(autouse=True, scope="module")
def _libraries():
    """transformers, imported when this module's first test runs rather than when pytest collects the suite: a test
    process that imports it at collection is ~100-200 MB larger for all of its ~900 real checks, and each of them
    forks it (the suite runs these modules last: tests/conftest.py)."""
    global transformers, LlamaConfig, LlamaAttention, repeat_kv
    transformers = pytest.importorskip("transformers")
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaAttention, repeat_kv


CPU = torch.device("cpu")
GROUPINGS = [(4, 2), (6, 3), (4, 1), (3, 3)]
MASKS = ["none", "causal", "b1", "bh", "padding"]


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_b_{kata.module}")


def _gen(seed):
    return torch.Generator().manual_seed(seed)


def _params(seed, C, kv_dim=None):
    return {k: v.double() for k, v in linear_params(_gen(seed), C, kv_dim).items()}


def _mask(kind, B, H, L, seed):
    """bool, True = may attend; no query row is fully masked (LlamaAttention's -inf would give NaN)."""
    shapes = {"b1": (B, 1, L, L), "bh": (B, H, L, L), "padding": (B, 1, 1, L)}
    if kind == "none":
        return None
    if kind == "causal":
        return causal(L)
    return random_mask(_gen(seed), *shapes[kind])


def _gqa(C, H, H_kv, params):
    module = _reference("gqa")(C, H, H_kv).double()
    module.load_state_dict(params)
    return module


def _llama(C, H, H_kv, params):
    config = LlamaConfig(hidden_size=C, num_attention_heads=H, num_key_value_heads=H_kv, head_dim=C // H,
                         attention_bias=True, attention_dropout=0.0)
    config._attn_implementation = "eager"
    theirs = LlamaAttention(config, layer_idx=0).double().eval()
    with torch.no_grad():
        for ours, name in (("w_q", "q_proj"), ("w_k", "k_proj"), ("w_v", "v_proj"), ("w_o", "o_proj")):
            getattr(theirs, name).weight.copy_(params[f"{ours}.weight"])
            getattr(theirs, name).bias.copy_(params[f"{ours}.bias"])
    return theirs


def llama_errors(H, H_kv, mask_kind, B=2, L=7, hd=4, seed=0):
    """Max abs errors (out, weights, every gradient) of the gqa reference against LlamaAttention."""
    C = H * hd
    params = _params(seed, C, H_kv * hd)
    x = torch.randn(B, L, C, generator=_gen(seed + 1), dtype=torch.float64)
    mask = _mask(mask_kind, B, H, L, seed + 2)
    ours, theirs = _gqa(C, H, H_kv, params), _llama(C, H, H_kv, params)
    x1, x2 = x.clone().requires_grad_(), x.clone().requires_grad_()
    out, weights = ours(x1, mask)
    ones = torch.ones(B, L, hd, dtype=torch.float64)  # RoPE at angle 0: cos = 1, sin = 0, the identity
    additive = None if mask is None else torch.zeros(mask.shape, dtype=torch.float64).masked_fill(~mask, float("-inf"))
    if additive is not None and additive.dim() == 2:
        additive = additive[None, None]
    out2, weights2 = theirs(x2, position_embeddings=(ones, torch.zeros_like(ones)), attention_mask=additive)
    probe = torch.randn(B, L, C, generator=_gen(seed + 3), dtype=torch.float64)
    (out * probe).sum().backward()
    (out2 * probe).sum().backward()
    errors = {"out": (out - out2).abs().max().item(), "weights": (weights - weights2).abs().max().item(),
              "grad of x": (x1.grad - x2.grad).abs().max().item()}
    for ours_name, name in (("w_q", "q_proj"), ("w_k", "k_proj"), ("w_v", "v_proj"), ("w_o", "o_proj")):
        for part in ("weight", "bias"):
            a = getattr(getattr(ours, ours_name), part).grad
            b = getattr(getattr(theirs, name), part).grad
            errors[f"grad of {ours_name}.{part}"] = (a - b).abs().max().item()
    return errors


@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize("H,H_kv", GROUPINGS)
def test_gqa_matches_llama_attention(H, H_kv, mask_kind):
    errors = llama_errors(H, H_kv, mask_kind)
    # transformers computes the softmax in float32: the float64 answers differ by float32 rounding.
    assert max(errors.values()) < 1e-6, errors


def test_repeat_kv_is_repeat_interleave_not_repeat():
    kv = torch.randn(2, 3, 5, 4, generator=_gen(7))
    assert torch.equal(repeat_kv(kv, 2), kv.repeat_interleave(2, dim=1))
    assert not torch.equal(repeat_kv(kv, 2), kv.repeat(1, 2, 1, 1))


def sdpa_gqa_errors(H, H_kv, mask_kind, B=2, L=6, hd=4, seed=10):
    """Max abs errors (out, weights) of the gqa reference against PyTorch's fused attention with
    enable_gqa=True on the same projections (the weights: its output for an identity V)."""
    C = H * hd
    params = _params(seed, C, H_kv * hd)
    ours = _gqa(C, H, H_kv, params)
    x = torch.randn(B, L, C, generator=_gen(seed + 1), dtype=torch.float64)
    mask = _mask(mask_kind, B, H, L, seed + 2)
    with torch.no_grad():
        out, weights = ours(x, mask)
        q = ours.w_q(x).view(B, L, H, hd).transpose(1, 2)
        k = ours.w_k(x).view(B, L, H_kv, hd).transpose(1, 2)
        v = ours.w_v(x).view(B, L, H_kv, hd).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)
        out2 = ours.w_o(y.transpose(1, 2).reshape(B, L, C))
        eye = torch.eye(L, dtype=torch.float64).expand(B, H_kv, L, L)
        weights2 = F.scaled_dot_product_attention(q, k, eye, attn_mask=mask, enable_gqa=True)
    return {"out": (out - out2).abs().max().item(), "weights": (weights - weights2).abs().max().item()}


@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize("H,H_kv", GROUPINGS + [(8, 2)])
def test_gqa_matches_fused_attention_with_enable_gqa(H, H_kv, mask_kind):
    errors = sdpa_gqa_errors(H, H_kv, mask_kind)
    assert max(errors.values()) < 1e-12, errors


def kv_cache_errors(chunks=(5, 1, 1, 2), B=2, H=3, hd=4, seed=20):
    """Max abs errors of the kv-cache reference run call by call, against one causal pass of
    PyTorch's fused attention over the whole sequence (outputs; final caches)."""
    C, T = H * hd, sum(chunks)
    module = _reference("kv-cache")(C, H).double()
    module.load_state_dict(_params(seed, C))
    x = torch.randn(B, T, C, generator=_gen(seed + 1), dtype=torch.float64)
    with torch.no_grad():
        outs, cache, start = [], None, 0
        for n in chunks:
            out, cache = module(x[:, start:start + n], past_kv=cache)
            outs.append(out)
            start += n
        q = module.w_q(x).view(B, T, H, hd).transpose(1, 2)
        k = module.w_k(x).view(B, T, H, hd).transpose(1, 2)
        v = module.w_v(x).view(B, T, H, hd).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        whole = module.w_o(y.transpose(1, 2).reshape(B, T, C))
    return {"out": (torch.cat(outs, dim=1) - whole).abs().max().item(),
            "k cache": (cache[0] - k).abs().max().item(), "v cache": (cache[1] - v).abs().max().item()}


@pytest.mark.parametrize("chunks", [(5, 1, 1, 2), (9,), (1,) * 6, (3, 2, 4), (2, 1, 3, 1, 1)])
def test_kv_cache_schedule_matches_one_fused_causal_pass(chunks):
    errors = kv_cache_errors(chunks)
    assert max(errors.values()) < 1e-12, errors


if __name__ == "__main__":
    torch.set_num_threads(1)
    worst = {}
    for H, H_kv in GROUPINGS:
        for kind in MASKS:
            for name, err in llama_errors(H, H_kv, kind).items():
                key = "out and weights" if name in ("out", "weights") else "gradients"
                worst[f"gqa vs LlamaAttention ({key})"] = max(worst.get(f"gqa vs LlamaAttention ({key})", 0.0), err)
    for H, H_kv in GROUPINGS + [(8, 2)]:
        for kind in MASKS:
            worst["gqa vs sdpa(enable_gqa)"] = max(worst.get("gqa vs sdpa(enable_gqa)", 0.0), *sdpa_gqa_errors(H, H_kv, kind).values())
    kv = torch.randn(2, 3, 5, 4)
    worst["repeat_kv vs repeat_interleave"] = (repeat_kv(kv, 2) - kv.repeat_interleave(2, dim=1)).abs().max().item()
    errors = kv_cache_errors((5, 1, 1, 2))
    worst["kv-cache 5+1+1+2 vs sdpa(is_causal) (out)"] = errors["out"]
    worst["kv-cache final caches vs the full pass"] = max(errors["k cache"], errors["v cache"])
    for name, err in worst.items():
        print(f"{name:50s} {err:.2g}")
