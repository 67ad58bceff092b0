"""The attention references against code nobody here wrote: PyTorch's fused attention, its
nn.MultiheadAttention (weights copied in), and its own causal-mask builders."""
from __future__ import annotations

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.text import catalog
from checker.specs._attention import linear_params, random_mask, zero_dead_rows_attention, zero_dead_rows_module
from checker.judge.spec import Inputs, Outcome
from checker.judge.worker import load_entry


causal_lower_right = None  # imported by _libraries, below


@pytest.fixture(autouse=True, scope="module")
def _libraries():
    """torch.nn.attention (it loads torch's compiler stack), imported when this module's first test runs rather than
    when pytest collects the suite: a test process that imports it at collection is ~100-200 MB larger for all of
    its ~900 real checks, and each of them forks it (the suite runs these modules last: tests/conftest.py)."""
    global causal_lower_right
    from torch.nn.attention.bias import causal_lower_right

CPU = torch.device("cpu")


@pytest.fixture(autouse=True)
def _one_thread():
    """Tiny tensors: threads only add contention (the checker's children run on one thread too)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_{kata.module}")


def _draw(seed, *shape, dtype=torch.float64):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)


def _mask(seed, shape, dead_rows=0.0):
    return random_mask(torch.Generator().manual_seed(seed), *shape, dead_rows=dead_rows)


# ---------------------------------------------------------------- attention


MASK_SHAPES = {"none": None, "2d": lambda B, H, Lq, Lk: (Lq, Lk), "b1": lambda B, H, Lq, Lk: (B, 1, Lq, Lk),
               "bh": lambda B, H, Lq, Lk: (B, H, Lq, Lk), "padding": lambda B, H, Lq, Lk: (B, 1, 1, Lk)}


@pytest.mark.parametrize("mask_kind", list(MASK_SHAPES))
@pytest.mark.parametrize("dims", [(2, 3, 5, 7, 8, 4), (1, 1, 1, 1, 1, 1), (3, 2, 6, 2, 16, 5)])
def test_attention_matches_fused_sdpa(mask_kind, dims):
    B, H, Lq, Lk, D, Dv = dims
    q, k, v = _draw(1, B, H, Lq, D), _draw(2, B, H, Lk, D), _draw(3, B, H, Lk, Dv)
    mask = None if MASK_SHAPES[mask_kind] is None else _mask(4, MASK_SHAPES[mask_kind](B, H, Lq, Lk))
    out, weights = _reference("attention")()(q, k, v, mask)
    torch.testing.assert_close(out, F.scaled_dot_product_attention(q, k, v, attn_mask=mask))
    # The weights: PyTorch's output for an identity V of width Lk is the weight matrix itself.
    eye = torch.eye(Lk, dtype=q.dtype).expand(B, H, Lk, Lk)
    torch.testing.assert_close(weights, F.scaled_dot_product_attention(q, k, eye, attn_mask=mask))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_fully_masked_rows_zero_convention_is_pytorchs(dtype):
    """Our second accepted answer (zero weights on fully-masked rows) is what the fused kernel gives;
    the reference's own answer (uniform weights) agrees with it on every other row."""
    B, H, L = 2, 2, 6
    q, k, v = (_draw(s, B, H, L, 8).to(dtype) for s in (5, 6, 7))
    mask = _mask(8, (B, H, L, L), dead_rows=0.3)
    dead = ~mask.any(-1)
    assert dead.any() and not dead.all()
    fused = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert torch.equal(fused[dead], torch.zeros_like(fused[dead])), "PyTorch's convention changed: revisit the alternatives"
    ref = _reference("attention")()
    outcome = Outcome(ref(q, k, v, mask))
    zero = zero_dead_rows_attention(outcome, Inputs(args={"q": q, "k": k, "v": v, "mask": mask}), CPU)
    tol = dict(rtol=1e-2, atol=1e-2) if dtype == torch.float16 else {}
    torch.testing.assert_close(zero.value[0], fused, **tol)
    torch.testing.assert_close(outcome.value[0][~dead], fused[~dead], **tol)
    uniform = outcome.value[1][dead]
    torch.testing.assert_close(uniform, torch.full_like(uniform, 1 / L))


# ---------------------------------------------------------------- mha and cross-attention


def _torch_mha(params, C, H, dtype):
    mha = nn.MultiheadAttention(C, H, batch_first=True, dtype=dtype)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([params[f"{n}.weight"] for n in ("w_q", "w_k", "w_v")]))
        mha.in_proj_bias.copy_(torch.cat([params[f"{n}.bias"] for n in ("w_q", "w_k", "w_v")]))
        mha.out_proj.weight.copy_(params["w_o.weight"])
        mha.out_proj.bias.copy_(params["w_o.bias"])
    return mha


def _torch_mask(mask, B, H, Lq, Lk):
    """nn.MultiheadAttention's bool mask means True = masked out, shaped [Lq, Lk] or [B*H, Lq, Lk]."""
    if mask is None:
        return None
    if mask.dim() == 2:
        return ~mask
    return ~mask.expand(B, H, Lq, Lk).reshape(B * H, Lq, Lk)


def _grads(module, tensors):
    return [t.grad for t in tensors] + [p.grad for p in module.parameters()]


@pytest.mark.parametrize("kata_id", ["mha", "cross-attention"])
@pytest.mark.parametrize("dims", [(2, 5, 7, 8, 2), (1, 1, 1, 4, 4), (3, 6, 3, 12, 4), (2, 4, 4, 6, 1)])
@pytest.mark.parametrize("mask_kind", ["none", "2d", "bh", "padding"])
def test_modules_match_nn_multihead_attention(kata_id, dims, mask_kind):
    B, Lq, Lk, C, H = dims
    if kata_id == "mha":
        Lk = Lq
    params = {k: v.double() for k, v in linear_params(torch.Generator().manual_seed(9), C).items()}
    x = _draw(10, B, Lq, C).requires_grad_()
    context = _draw(11, B, Lk, C).requires_grad_()
    shape = MASK_SHAPES[mask_kind]
    mask = None if shape is None else _mask(12, shape(B, H, Lq, Lk))
    if mask is not None and mask.shape == (B, 1, 1, Lk):
        mask = mask.expand(B, 1, Lq, Lk)  # keep padding masks expressible for nn.MultiheadAttention
    ours = _reference(kata_id)(C, H).double()
    ours.load_state_dict(params)
    theirs = _torch_mha(params, C, H, torch.float64)
    x2, context2 = x.detach().clone().requires_grad_(), context.detach().clone().requires_grad_()
    if kata_id == "mha":
        out, weights = ours(x, mask)
        out2, weights2 = theirs(x2, x2, x2, attn_mask=_torch_mask(mask, B, H, Lq, Lk), need_weights=True,
                                average_attn_weights=False)
    else:
        out, weights = ours(x, context, mask)
        out2, weights2 = theirs(x2, context2, context2, attn_mask=_torch_mask(mask, B, H, Lq, Lk), need_weights=True,
                                average_attn_weights=False)
    torch.testing.assert_close(out, out2)
    torch.testing.assert_close(weights, weights2)
    probe = _draw(13, B, Lq, C)
    (out * probe).sum().backward()
    (out2 * probe).sum().backward()
    g = {"x": x.grad, "w_o.weight": ours.w_o.weight.grad, "w_o.bias": ours.w_o.bias.grad}
    g2 = {"x": x2.grad, "w_o.weight": theirs.out_proj.weight.grad, "w_o.bias": theirs.out_proj.bias.grad}
    for i, n in enumerate(("w_q", "w_k", "w_v")):
        g[f"{n}.weight"], g[f"{n}.bias"] = getattr(ours, n).weight.grad, getattr(ours, n).bias.grad
        g2[f"{n}.weight"] = theirs.in_proj_weight.grad[i * C:(i + 1) * C]
        g2[f"{n}.bias"] = theirs.in_proj_bias.grad[i * C:(i + 1) * C]
    if kata_id == "cross-attention":
        g["context"], g2["context"] = context.grad, context2.grad
    for name in g:
        torch.testing.assert_close(g[name], g2[name], msg=lambda m, name=name: f"grad of {name}: {m}")


@pytest.mark.parametrize("kata_id", ["mha", "cross-attention"])
def test_fully_masked_rows_modules(kata_id):
    """nn.MultiheadAttention gives NaN on a fully-masked row; every other row matches the reference's,
    and our zero-convention alternative matches a zero-weight recomputation through PyTorch's pieces."""
    B, Lq, Lk, C, H = 2, 6, 6 if kata_id == "mha" else 4, 8, 2
    params = {k: v.double() for k, v in linear_params(torch.Generator().manual_seed(14), C).items()}
    x, context = _draw(15, B, Lq, C), _draw(16, B, Lk, C)
    mask = _mask(17, (B, H, Lq, Lk), dead_rows=0.3)
    ours = _reference(kata_id)(C, H).double()
    ours.load_state_dict(params)
    args = {"x": x, "mask": mask} if kata_id == "mha" else {"x": x, "context": context, "mask": mask}
    outcome = Outcome(ours(**args))
    theirs = _torch_mha(params, C, H, torch.float64)
    src = x if kata_id == "mha" else context
    _, weights2 = theirs(x, src, src, attn_mask=_torch_mask(mask, B, H, Lq, Lk), average_attn_weights=False)
    live = mask.any(-1)
    torch.testing.assert_close(outcome.value[1][live], weights2[live])
    # The zero convention, built independently: fused attention per head (zeros on dead rows), then w_o.
    q = F.linear(x, params["w_q.weight"], params["w_q.bias"]).view(B, Lq, H, C // H).transpose(1, 2)
    k = F.linear(src, params["w_k.weight"], params["w_k.bias"]).view(B, Lk, H, C // H).transpose(1, 2)
    v = F.linear(src, params["w_v.weight"], params["w_v.bias"]).view(B, Lk, H, C // H).transpose(1, 2)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask).transpose(1, 2).reshape(B, Lq, C)
    expected = F.linear(y, params["w_o.weight"], params["w_o.bias"])
    zero = zero_dead_rows_module(outcome, Inputs(args=args, init={"embed_dim": C, "num_heads": H}, params=params), CPU)
    torch.testing.assert_close(zero.value[0], expected)
    assert torch.equal(zero.value[1][~live], torch.zeros_like(zero.value[1][~live]))


# ---------------------------------------------------------------- masks


@pytest.mark.parametrize("B,H,L", [(1, 1, 1), (2, 3, 5), (3, 2, 17)])
def test_causal_mask_matches_pytorchs_square_subsequent_mask(B, H, L):
    mask = _reference("causal-mask")(B, H, L)
    theirs = nn.Transformer.generate_square_subsequent_mask(L) == 0  # 0 = may attend, -inf = future
    assert mask.dtype == torch.bool and mask.shape == (B, H, L, L)
    assert torch.equal(mask, theirs.expand(B, H, L, L))


@pytest.mark.parametrize("L,start", [(1, 0), (1, 9), (4, 0), (4, 3), (3, 50), (8, 2)])
def test_offset_causal_mask_matches_pytorchs_lower_right_causal_bias(L, start):
    mask = _reference("offset-causal-mask")(L, start)
    assert mask.dtype == torch.bool
    assert torch.equal(mask, causal_lower_right(L, start + L)._materialize())


@pytest.mark.parametrize("L,start,window", [(1, 0, 1), (5, 4, 3), (4, 3, 1), (4, 5, 100), (3, 4, 7), (4, 30, 16)])
def test_sliding_window_mask_matches_flex_attention_create_mask(L, start, window):
    from torch.nn.attention.flex_attention import create_mask

    def sliding_window(b, h, q_idx, kv_idx):  # flex attention's mask_mod, with the KV-cache offset
        p = q_idx + start
        return (kv_idx <= p) & (p - kv_idx < window)

    mask = _reference("sliding-window-mask")(L, start, window)
    assert mask.dtype == torch.bool
    assert torch.equal(mask, create_mask(sliding_window, None, None, L, start + L, device="cpu")[0, 0])
    # and as PyTorch's lower-right causal mask minus the same mask shifted by the window
    if window < start + L:
        older = causal_lower_right(L, start + L - window)._materialize()
        older = F.pad(older, (0, window), value=False)
        assert torch.equal(mask, causal_lower_right(L, start + L)._materialize() & ~older)
