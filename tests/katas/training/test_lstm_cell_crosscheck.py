"""The lstm-cell reference against code nobody here wrote: torch.nn.LSTMCell (the reference's state_dict loaded with
strict=True) over threaded sequences, and torch.nn.LSTM (the same weights renamed *_l0) over a whole sequence.

Figures measured here (torch 2.13 CPU; shared/KATAS-training-2.md's table in brackets):
  vs nn.LSTMCell, 12 draws per dtype (I, H 1–8, B 1–4, 1–6 threaded calls, bias on/off, hx None or given):
      every h and c, absolute                          float64 2.2e-16 / float32 2.4e-7   [2.2e-16 / 1.3e-7]
      gradients w.r.t. every x_t, h_0, c_0 and every parameter, / max(1, max|grad|)
                                                       float64 2.4e-16 / float32 2.1e-7   [4.9e-16 / 3.4e-7]
  threaded vs nn.LSTM (T = 9, float64), every output and c_T   2.2e-16                    [2.2e-16]
`python tests/katas/training/test_lstm_cell_crosscheck.py` prints the measured errors.
"""
from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from checker.judge.worker import load_entry
from checker.text import catalog

CPU = torch.device("cpu")


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference():
    kata = catalog.get("lstm-cell")
    return load_entry(kata.reference_path, kata.entry, "crosscheck_lstm_cell")


def _draw(seed: int, dtype: torch.dtype):
    g = torch.Generator().manual_seed(seed)
    r = lambda lo, hi: int(torch.randint(lo, hi + 1, (1,), generator=g))  # noqa: E731
    I, H, B, T = r(1, 8), r(1, 8), r(1, 4), r(1, 6)
    bias, given = bool(seed % 2), bool(seed % 3)
    xs = [torch.randn(B, I, generator=g, dtype=torch.float64).to(dtype) for _ in range(T)]
    hx = (torch.randn(B, H, generator=g, dtype=torch.float64).to(dtype),
          torch.randn(B, H, generator=g, dtype=torch.float64).to(dtype)) if given else None
    probes = [torch.randn(B, H, generator=g, dtype=torch.float64).to(dtype) for _ in range(T + 1)]
    return I, H, bias, xs, hx, probes


def _run(cell: nn.Module, xs, hx, probes):
    """Thread the cell's own state through the calls; every h and c, then the gradients of the kata's loss."""
    xs = [x.detach().clone().requires_grad_(True) for x in xs]
    leaves = list(xs)
    if hx is not None:
        hx = tuple(t.detach().clone().requires_grad_(True) for t in hx)
        leaves += list(hx)
    outs, state = [], hx
    for x in xs:
        state = cell(x) if state is None else cell(x, state)
        outs.append(state)
    loss = sum((h * p).sum() for (h, _), p in zip(outs, probes)) + (outs[-1][1] * probes[-1]).sum()
    grads = torch.autograd.grad(loss, leaves + list(cell.parameters()))
    return [t.detach() for pair in outs for t in pair], list(grads)


def errors(dtype: torch.dtype, draws: int = 12) -> tuple[float, float]:
    """The largest difference of the outputs (absolute) and of the gradients (/ max(1, max|grad|)) over the draws."""
    ours, out_err, grad_err = _reference(), 0.0, 0.0
    for seed in range(draws):
        I, H, bias, xs, hx, probes = _draw(seed, dtype)
        mine = ours(I, H, bias=bias).to(dtype)
        torch_cell = nn.LSTMCell(I, H, bias=bias).to(dtype)
        torch_cell.load_state_dict(mine.state_dict(), strict=True)
        a_out, a_grad = _run(mine, xs, hx, probes)
        b_out, b_grad = _run(torch_cell, xs, hx, probes)
        out_err = max([out_err] + [float((a - b).abs().max()) for a, b in zip(a_out, b_out)])
        grad_err = max([grad_err] + [float((a - b).abs().max()) / max(1.0, float(b.abs().max()))
                                     for a, b in zip(a_grad, b_grad)])
    return out_err, grad_err


def lstm_error(T: int = 9) -> float:
    """The reference threaded over T steps against nn.LSTM over the whole sequence (weights renamed *_l0)."""
    g = torch.Generator().manual_seed(7)
    I, H, B = 5, 4, 3
    cell = _reference()(I, H).double()
    lstm = nn.LSTM(I, H).double()
    lstm.load_state_dict({f"{name}_l0": p for name, p in cell.state_dict().items()}, strict=True)
    x = torch.randn(T, B, I, generator=g, dtype=torch.float64)
    h0, c0 = torch.randn(1, B, H, generator=g, dtype=torch.float64), torch.randn(1, B, H, generator=g, dtype=torch.float64)
    with torch.no_grad():
        out, (h_T, c_T) = lstm(x, (h0, c0))
        state, hs = (h0[0], c0[0]), []
        for t in range(T):
            state = cell(x[t], state)
            hs.append(state[0])
    return max(float((torch.stack(hs) - out).abs().max()), float((state[0] - h_T[0]).abs().max()),
               float((state[1] - c_T[0]).abs().max()))


@pytest.mark.parametrize("dtype,out_tol,grad_tol", [(torch.float64, 1e-14, 1e-14), (torch.float32, 1e-6, 2e-6)])
def test_reference_matches_torch_lstm_cell(dtype, out_tol, grad_tol):
    out_err, grad_err = errors(dtype)
    assert out_err <= out_tol and grad_err <= grad_tol, (out_err, grad_err)


def test_reference_unrolled_matches_torch_lstm():
    assert lstm_error() <= 1e-14


if __name__ == "__main__":
    for dtype in (torch.float64, torch.float32):
        print(dtype, "outputs / gradients:", *(f"{e:.2g}" for e in errors(dtype)))
    print("nn.LSTM, T = 9, float64:", f"{lstm_error():.2g}")
