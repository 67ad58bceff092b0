"""numpy-mha's reference against torch's `F.multi_head_attention_forward` (the function behind
`nn.MultiheadAttention`), on every case of one seed and on 60 random draws of the contract's row.

torch takes the weights in nn.Linear's (out, in) layout, so each of the reference's (in, out) weights goes in
transposed (`in_proj_weight = [w_qᵀ; w_kᵀ; w_vᵀ]`, `out_proj.weight = w_oᵀ`), the biases packed into `in_proj_bias`
(zeros for a None), the boolean mask inverted into torch's "True = blocked" and broadcast to [B·H, L, L], and
the weights asked per head (`need_weights=True, average_attn_weights=False`). An unbatched [L, C] input is passed
as torch's unbatched form.

Figures measured on this machine (torch 2.13 CPU, NumPy 2.4) by `figures()` (python -m
tests.katas.attention.test_numpy_mha_crosscheck); output relative to max(1, max|out|):

| check | output | per-head weights |
|---|---|---|
| 60 draws (B 1–3, L 1–9, H 1–4, d 1–5, causal or none, every bias given), float32 | 3.2e-07 | 2.4e-07 |
| the same draws, float64 | 5.2e-16 | 5.6e-16 |
| every case of seed 1 (107 cases, every mask shape, large scores included), worst | 2.7e-07 | 1.8e-07 |
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.spec_support import reference_of

torch = pytest.importorskip("torch")
F = torch.nn.functional

KATA = catalog.get("numpy-mha")
SPEC = importlib.import_module(KATA.spec_module)


def _torch_mha(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    """The same layer through torch, in its layouts; returns NumPy arrays."""
    C = x.shape[-1]
    zeros = np.zeros(C, dtype=x.dtype)
    in_w = torch.from_numpy(np.concatenate([w_q.T, w_k.T, w_v.T]).copy())  # [3C, C], (out, in)
    in_b = torch.from_numpy(np.concatenate([zeros if b is None else b for b in (b_q, b_k, b_v)]))
    out_b = torch.from_numpy(zeros if b_o is None else b_o)
    unbatched = x.ndim == 2
    t = torch.from_numpy(x)
    seq = t if unbatched else t.transpose(0, 1)  # torch's (L, B, C)
    L, H = x.shape[-2], num_heads
    blocked = None
    if mask is not None:
        full = np.broadcast_to(mask, (H, L, L) if unbatched else (x.shape[0], H, L, L))
        blocked = torch.from_numpy(~full.reshape(-1, L, L))  # True = blocked, [B·H, L, L]
        if unbatched:
            blocked = blocked.reshape(H, L, L)
    out, attn = F.multi_head_attention_forward(
        seq, seq, seq, C, H, in_w, in_b, None, None, False, 0.0, torch.from_numpy(w_o.T.copy()), out_b,
        training=False, need_weights=True, attn_mask=blocked, average_attn_weights=False)
    out = out if unbatched else out.transpose(0, 1)
    return out.numpy(), attn.numpy()


def _reference(**args):
    multi_head_attention = reference_of(catalog.get("numpy-mha"))  # loaded by path, never as `reference.*`

    return multi_head_attention(**args)


def _draw(rng: np.random.Generator, dtype) -> dict:
    B, L, H, d = rng.integers(1, 4), rng.integers(1, 10), rng.integers(1, 5), rng.integers(1, 6)
    C = int(H * d)
    args = {"x": rng.standard_normal((B, L, C)).astype(dtype), "num_heads": int(H)}
    for name in ("w_q", "w_k", "w_v", "w_o"):
        args[name] = (rng.standard_normal((C, C)) / np.sqrt(C)).astype(dtype)
    for name in ("b_q", "b_k", "b_v", "b_o"):
        args[name] = (0.5 * rng.standard_normal(C)).astype(dtype)
    if rng.random() < 0.5:
        args["mask"] = np.tril(np.ones((L, L), dtype=bool))
    return args


def _gaps(args) -> tuple[float, float]:
    out, attn = _reference(**args)
    t_out, t_attn = _torch_mha(**args)
    assert t_out.shape == out.shape and t_attn.shape == attn.shape
    return (float(np.abs(out - t_out).max() / max(1.0, np.abs(t_out).max())),
            float(np.abs(attn - t_attn).max()))


def figures(draws: int = 60) -> dict[str, tuple[float, float]]:
    found = {}
    for dtype in (np.float32, np.float64):
        rng = np.random.default_rng(0)
        gaps = [_gaps(_draw(rng, dtype)) for _ in range(draws)]
        found[np.dtype(dtype).name] = (max(g[0] for g in gaps), max(g[1] for g in gaps))
    cases = [_gaps(c.inputs.args) for c in spec_api.build_cases(SPEC, 1)]
    found["cases"] = (max(g[0] for g in cases), max(g[1] for g in cases))
    return found


@pytest.mark.parametrize("dtype, bound", [(np.float32, 2e-6), (np.float64, 1e-13)])
def test_reference_matches_torch_on_random_draws(dtype, bound):
    rng = np.random.default_rng(0)
    for _ in range(60):
        out_gap, attn_gap = _gaps(_draw(rng, dtype))
        assert out_gap < bound and attn_gap < bound


def test_reference_matches_torch_on_every_case():
    """Every mask shape, unbatched input, None biases and the large-score cases, within the kata's own tolerance."""
    for case in spec_api.build_cases(SPEC, 1):
        args = case.inputs.args
        out, attn = _reference(**args)
        t_out, t_attn = _torch_mha(**args)
        rtol, atol = (1e-4, 1e-5) if args["x"].dtype == np.float32 else (1e-7, 1e-9)
        np.testing.assert_allclose(out, t_out, rtol=rtol, atol=atol * max(1.0, np.abs(t_out).max()), err_msg=case.name)
        np.testing.assert_allclose(attn, t_attn, rtol=rtol, atol=atol, err_msg=case.name)


if __name__ == "__main__":
    for check, (o, a) in figures().items():
        print(f"{check}: output {o:.1e}, weights {a:.1e}")
