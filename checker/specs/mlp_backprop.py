"""Case families for `mlp-backprop` (NumPy, gradients by hand): float32 and float64, N = 1, H = 1, K = 2,
integer inputs whose pre-activations are exactly 0 (relu'(0) = 0 and = 1 both accepted), a dead hidden layer,
logits of ~1e4 (float64) and ~1e3 (float32), then random draws.

The loss is a float (Python float, NumPy scalar or 0-dim array), compared at the inputs' dtype's tolerance;
each gradient's atol is the table's times max(1, max|expected|) of that gradient. Pre-activations are exactly
0 only where a case makes them so, on small integers: elsewhere every |a| keeps a margin of 1e-3 of the size of
its terms, so no rounding flips a ReLU. The huge-logit cases keep every row's top logit 20 above the next, so
the softmax is saturated, and hold a target logit far below its row's max (its probability underflows to 0).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake, Outcome

NAMES = ("X", "y", "W1", "b1", "W2", "b2")


def _rng(g: torch.Generator) -> np.random.Generator:
    return np.random.default_rng(int(torch.randint(2**62, (1,), generator=g)))


def _inputs(X, y, W1, b1, W2, b2, dtype) -> Inputs:
    args = dict(zip(NAMES, (X.astype(dtype), y.astype(np.int64), W1.astype(dtype), b1.astype(dtype),
                            W2.astype(dtype), b2.astype(dtype))))
    N, D = X.shape
    H, K = W2.shape
    return Inputs(args=args, show={"N": N, "D": D, "H": H, "K": K})


def _pre_activations(X, W1, b1) -> tuple[np.ndarray, np.ndarray]:
    """a = X W1 + b1 in float64, and the size of the terms each entry sums (for its rounding)."""
    X, W1, b1 = (v.astype(np.float64) for v in (X, W1, b1))
    return X @ W1 + b1, np.abs(X) @ np.abs(W1) + np.abs(b1)


def _clear_of_zero(X, W1, b1, dtype) -> bool:
    """Every pre-activation, rounded to dtype as the learner computes it, keeps its sign."""
    a, size = _pre_activations(X.astype(dtype), W1.astype(dtype), b1.astype(dtype))
    return bool((np.abs(a) >= 1e-3 * size).all())


def _draw(N: int, D: int, H: int, K: int, dtype=np.float32, *, w2_scale: float = 1.0,
          until: Callable[..., bool] | None = None) -> Callable[[torch.Generator], Inputs]:
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        for _ in range(300):
            X = rng.standard_normal((N, D))
            W1 = rng.standard_normal((D, H)) / np.sqrt(D)
            b1 = 0.5 * rng.standard_normal(H)
            W2 = w2_scale * rng.standard_normal((H, K)) / np.sqrt(H)
            b2 = 0.5 * rng.standard_normal(K)
            y = rng.integers(0, K, N)
            parts = (X, y, W1, b1, W2, b2)
            if _clear_of_zero(X, W1, b1, dtype) and (until is None or until(*parts)):
                return _inputs(*parts, dtype)
        raise RuntimeError("no safe draw: widen the family's ranges")
    return make


def _integers(dtype) -> Callable[[torch.Generator], Inputs]:
    """Small integers everywhere: a = X W1 + b1 is exact in any order, and several entries are exactly 0
    where the upstream gradient is not, so relu'(0) decides them."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        for _ in range(300):
            X = rng.integers(-2, 3, (6, 4)).astype(np.float64)
            W1 = rng.integers(-2, 3, (4, 5)).astype(np.float64)
            b1 = rng.integers(-2, 3, 5).astype(np.float64)
            W2 = rng.integers(-2, 3, (5, 3)).astype(np.float64)
            b2 = rng.integers(-1, 2, 3).astype(np.float64)
            y = rng.integers(0, 3, 6)
            a = X @ W1 + b1
            upstream = np.abs(np.ones((6, 3)) @ W2.T)  # dh is nonzero where W2's row is (a softmax is never 0/1 here)
            if ((a == 0) & (upstream > 0)).sum() >= 3:
                return _inputs(X, y, W1, b1, W2, b2, dtype)
        raise RuntimeError("no integer draw with zeros")
    return make


def _dead(g: torch.Generator) -> Inputs:
    """b1 so negative that every pre-activation is below 0: h = 0, so dW1, db1 and dW2 are all zero."""
    inputs = _draw(6, 4, 5, 3, np.float64)(g)
    args = inputs.args
    a, _ = _pre_activations(args["X"], args["W1"], np.zeros_like(args["b1"]))
    args["b1"] = (-np.abs(a).max(axis=0) - 1.0).astype(args["b1"].dtype)
    return inputs


def _huge(dtype, scale: float) -> Callable[[torch.Generator], Inputs]:
    """Logits of size `scale` with each row's top logit 20 above the next (a saturated softmax), and row 0's
    target at its row's smallest logit, far enough below the max that its probability underflows to 0."""
    def saturated(X, y, W1, b1, W2, b2) -> bool:
        a, _ = _pre_activations(X, W1, b1)
        z = np.maximum(a, 0) @ W2 + b2
        top = np.sort(z, axis=1)
        y[0] = int(np.argmin(z[0]))  # the target of row 0: its least likely class
        floor = 800.0 if dtype == np.float64 else 120.0  # exp underflows below -745 (float64), -104 (float32)
        return bool((top[:, -1] - top[:, -2] >= 20).all() and z[0].max() - z[0].min() >= floor
                    and np.abs(z).max() >= scale / 4)
    return _draw(5, 4, 6, 4, dtype, w2_scale=scale / 2, until=saturated)


def _random(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    dims = (int(rng.integers(1, 17)), int(rng.integers(1, 9)), int(rng.integers(1, 11)), int(rng.integers(2, 7)))
    dtype = np.float32 if rng.random() < 0.5 else np.float64
    w2_scale = float(rng.choice([0.3, 1.0, 3.0]))
    return _draw(*dims, dtype, w2_scale=w2_scale)(g)


FAMILIES = (
    Family("float32", _draw(8, 5, 6, 4, np.float32)),
    Family("float64", _draw(8, 5, 6, 4, np.float64)),
    Family("n_one", _draw(1, 5, 6, 4, np.float64)),
    Family("n_one_float32", _draw(1, 3, 4, 3, np.float32)),
    Family("h_one", _draw(7, 4, 1, 3, np.float64)),
    Family("k_two", _draw(9, 3, 5, 2, np.float64)),
    Family("square_shapes", _draw(5, 5, 5, 5, np.float64)),
    Family("zero_preactivations", _integers(np.float64)),
    Family("zero_preactivations_float32", _integers(np.float32)),
    Family("dead_hidden_layer", _dead),
    Family("huge_logits", _huge(np.float64, 1e4)),
    Family("huge_logits_float32", _huge(np.float32, 1e3)),
    Family("random", _random, draws=90),
)


# ---------------------------------------------------------------- hooks


def expected(kata: Any, entry: Any, inputs: Inputs, device: torch.device) -> list[Outcome]:
    """The reference (relu'(0) = 0, as torch), and where a pre-activation is exactly 0 also relu'(0) = 1:
    both are subgradients, and `a > 0` and `a >= 0` masks are both right."""
    outcomes = [spec_api.call(kata, entry, inputs, device)]
    args = inputs.args
    if ((args["X"] @ args["W1"] + args["b1"]) == 0).any():
        outcomes.append(spec_api.call(kata, _variant(relu_at_zero=1.0), inputs, device))
    return outcomes


def tolerance_for(case: Any, item: str, dtype: torch.dtype, expected: Any) -> tuple[float, float] | None:
    """Each gradient at the dtype's tolerance, its atol times max(1, max|expected|)."""
    if not item.startswith("d") or expected is None or expected.numel() == 0:
        return None
    rtol, atol = spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
    return rtol, atol * max(1.0, float(expected.double().abs().max()))


# ---------------------------------------------------------------- known mistakes


def _variant(*, relu_at_zero=0.0, divide_by_n=True, loss="mean", shift=True, log_of_softmax=False, onehot=True,
             dW2_from="h", mask=True, derivative="relu", db_axis=0, reduce_bias=True, transpose=False,
             float64_onehot=False):
    """The forward and backward with one switch turned. relu_at_zero: relu'(0) (0 and 1 are right, 0.5 is
    not); loss: "mean" | "sum" | "sum_grads_too"; shift=False: softmax without the max shift;
    derivative: "relu" | "sigmoid" (h·(1−h) applied to the ReLU's output)."""
    def mlp_forward_backward(X, y, W1, b1, W2, b2):
        N = X.shape[0]
        a = X @ W1 + b1
        h = np.maximum(a, 0)
        z = h @ W2 + b2
        m = z.max(axis=1, keepdims=True) if shift else np.zeros_like(z[:, :1])
        e = np.exp(z - m)
        p = e / e.sum(axis=1, keepdims=True)
        rows = np.arange(N)
        if log_of_softmax:
            per_row = -np.log(p[rows, y])
        else:
            per_row = np.log(e.sum(axis=1)) + m[:, 0] - z[rows, y]
        value = float(per_row.sum() if loss != "mean" else per_row.mean())
        if float64_onehot:
            dz = p - np.eye(z.shape[1])[y]
        else:
            dz = p.copy()
            if onehot:
                dz[rows, y] -= 1
        if divide_by_n and loss != "sum_grads_too":
            dz = dz / N
        dW2 = (h if dW2_from == "h" else a).T @ dz
        dh = dz @ W2.T
        if not mask:
            da = dh
        elif derivative == "sigmoid":
            da = dh * h * (1 - h)
        else:
            da = dh * np.where(a > 0, 1.0, np.where(a == 0, relu_at_zero, 0.0)).astype(a.dtype)
        dW1 = X.T @ da
        if transpose:
            dW1, dW2 = da.T @ X, dz.T @ h
        if reduce_bias:
            db1, db2 = da.sum(axis=db_axis), dz.sum(axis=db_axis)
        else:
            db1, db2 = da, dz
        return value, dW1, db1, dW2, db2
    return mlp_forward_backward


MISTAKES = (
    Mistake("not_divided_by_n", _variant(divide_by_n=False)),
    Mistake("loss_summed", _variant(loss="sum")),
    Mistake("loss_summed", _variant(loss="sum_grads_too")),
    Mistake("no_max_shift", _variant(shift=False)),
    Mistake("log_of_softmax", _variant(log_of_softmax=True)),
    Mistake("no_onehot", _variant(onehot=False)),
    Mistake("dW2_from_pre_activation", _variant(dW2_from="a")),
    Mistake("no_relu_mask", _variant(mask=False)),
    Mistake("sigmoid_derivative", _variant(derivative="sigmoid")),
    Mistake("relu_grad_half", _variant(relu_at_zero=0.5)),
    Mistake("bias_summed_over_features", _variant(db_axis=1)),
    Mistake("bias_not_reduced", _variant(reduce_bias=False)),
    Mistake("transposed_weight_grads", _variant(transpose=True)),
    Mistake("float64_onehot", _variant(float64_onehot=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    """A plain draw, timed and not judged: 131,072 pre-activations are never all clear of zero, and need not be."""
    rng = _rng(g)
    N, D, H, K = 512, 784, 256, 10
    return _inputs(rng.standard_normal((N, D)), rng.integers(0, K, N), rng.standard_normal((D, H)) / np.sqrt(D),
                   0.5 * rng.standard_normal(H), rng.standard_normal((H, K)) / np.sqrt(H), 0.5 * rng.standard_normal(K),
                   np.float32)


# `kata check mlp-backprop --bench`: a batch of 512 MNIST-sized inputs through 256 hidden units.
BENCH = ("N 512, D 784, H 256, K 10, float32", _bench)
