"""linear-attention's reference against code written from the sources, not from the reference:

- the paper's recurrence (Katharopoulos et al. 2020, eq. 16-20) as an explicit float64 loop over positions, with
  fast-transformers' eps added once after the dot product;
- fast-transformers' own two formulas, transcribed from its pure-PyTorch paths (@2ad36b9):
  `RecurrentLinearAttention.forward` (Si = Si + einsum("nhd,nhm->nhdm", K, V); Z = 1 / (einsum("nhd,nhd->nh", Q, Zi)
  + eps); V = einsum("nhd,nhdm,nh->nhm", Q, Si, Z)), token by token with the memory threaded, and
  `CausalLinearAttention.forward`'s core (Z = 1 / (einsum("nlhi,nlhi->nlh", Q, K.cumsum(1)) + eps);
  V = causal_linear(Q, K, V) * Z), its [N, L, H, D] layout permuted in and out.
  (fast_transformers itself is not installed: its CUDA/C++ extensions do not build here.)

Measured on 40 draws (L 1-39, D and Dv 1-16, B and H 1-2, half with a given state), max abs error relative to
max(1, max|expected|): float64 reference vs the loop 4.0e-16 (outputs), 5.5e-16 (S, z); float32 reference vs the
float64 loop 2.5e-07; vs fast-transformers' recurrent form 1.8e-07 (outputs) / 2.6e-07 (S, z) in float32, 5.5e-16
in float64; vs its causal form 1.2e-07 (float32), 2.2e-16 (float64).
The test bounds them at float64 1e-13, float32 5e-6."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from checker.text import catalog
from tests.spec_support import reference_of

ref = reference_of(catalog.get("linear-attention"))  # loaded by path, never as `reference.*`


DRAWS = 40


def paper_loop(q, k, v, state=None, eps=1e-6):
    """eq. 16-20 of the paper, one position at a time, in float64."""
    q, k, v = q.double(), k.double(), v.double()
    B, H, L, D = q.shape
    S = torch.zeros(B, H, D, v.shape[-1], dtype=torch.float64) if state is None else state[0].double().clone()
    z = torch.zeros(B, H, D, dtype=torch.float64) if state is None else state[1].double().clone()
    out = torch.empty(B, H, L, v.shape[-1], dtype=torch.float64)
    for b in range(B):
        for h in range(H):
            for i in range(L):
                fk = F.elu(k[b, h, i]) + 1
                fq = F.elu(q[b, h, i]) + 1
                S[b, h] += torch.outer(fk, v[b, h, i])
                z[b, h] += fk
                out[b, h, i] = fq @ S[b, h] / (fq @ z[b, h] + eps)
    return out, (S, z)


def ft_recurrent(q, k, v, state=None, eps=1e-6):
    """fast-transformers' RecurrentLinearAttention (elu feature map), token by token: [N, H, D] per step."""
    outs, memory = [], state
    for i in range(q.shape[2]):
        Q, K, value = F.elu(q[:, :, i]) + 1, F.elu(k[:, :, i]) + 1, v[:, :, i]
        N, H, D = Q.shape
        M = value.shape[-1]
        if memory is None:
            Si, Zi = Q.new_zeros((N, H, D, M)), Q.new_zeros((N, H, D))
        else:
            Si, Zi = memory
        Zi = Zi + K
        Si = Si + torch.einsum("nhd,nhm->nhdm", K, value)
        Z = 1. / (torch.einsum("nhd,nhd->nh", Q, Zi) + eps)
        outs.append(torch.einsum("nhd,nhdm,nh->nhm", Q, Si, Z))
        memory = (Si, Zi)
    return torch.stack(outs, 2), memory


def ft_causal(q, k, v, eps=1e-6):
    """fast-transformers' CausalLinearAttention core in its [N, L, H, D] layout (causal_linear as cumsums)."""
    Q, K, V = (t.permute(0, 2, 1, 3) for t in (F.elu(q) + 1, F.elu(k) + 1, v))
    Z = 1 / (torch.einsum("nlhi,nlhi->nlh", Q, K.cumsum(1)) + eps)
    kv = torch.einsum("nlhd,nlhm->nlhdm", K, V).cumsum(1)
    out = torch.einsum("nlhd,nlhdm->nlhm", Q, kv) * Z[:, :, :, None]
    return out.permute(0, 2, 1, 3)


def _draws():
    g = torch.Generator().manual_seed(20201)
    for _ in range(DRAWS):
        B, H = int(torch.randint(1, 3, (1,), generator=g)), int(torch.randint(1, 3, (1,), generator=g))
        L, D, Dv = (int(torch.randint(1, n, (1,), generator=g)) for n in (40, 17, 17))
        q, k, v = (torch.randn(B, H, L, d, generator=g, dtype=torch.float64) for d in (D, D, Dv))
        given = bool(torch.randint(0, 2, (1,), generator=g))
        pk, pv = torch.randn(B, H, 7, D, generator=g, dtype=torch.float64), torch.randn(B, H, 7, Dv, generator=g, dtype=torch.float64)
        state = (torch.einsum("bhld,bhle->bhde", F.elu(pk) + 1, pv), (F.elu(pk) + 1).sum(2)) if given else None
        yield q, k, v, state


def _err(got, want):
    return float((got.double() - want.double()).abs().max()) / max(1.0, float(want.abs().max()))


def test_reference_matches_the_papers_recurrence_in_float64_and_float32():
    worst64 = worst32 = 0.0
    for q, k, v, state in _draws():
        want, (S, z) = paper_loop(q, k, v, state)
        got, (S1, z1) = ref(q, k, v, state)
        worst64 = max(worst64, _err(got, want), _err(S1, S), _err(z1, z))
        f = lambda t: t.float()  # noqa: E731
        got32, _ = ref(f(q), f(k), f(v), None if state is None else tuple(map(f, state)))
        worst32 = max(worst32, _err(got32, want))
    assert worst64 < 1e-13 and worst32 < 5e-6, (worst64, worst32)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_fast_transformers_formulas(dtype):
    worst = 0.0
    for q, k, v, state in _draws():
        q, k, v = q.to(dtype), k.to(dtype), v.to(dtype)
        state = None if state is None else tuple(t.to(dtype) for t in state)
        got, (S, z) = ref(q, k, v, state)
        want, (S_ft, z_ft) = ft_recurrent(q, k, v, state)
        worst = max(worst, _err(got, want), _err(S, S_ft), _err(z, z_ft))
        if state is None:
            worst = max(worst, _err(got, ft_causal(q, k, v)))
    assert worst < (5e-6 if dtype == torch.float32 else 1e-13), worst
