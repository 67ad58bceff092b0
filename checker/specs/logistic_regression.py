"""Case families for `logistic-regression` (NumPy): full-batch gradient descent on the mean BCE + (l2/2)‖w‖².

Every case keeps lr ≤ 1/L, L = λ_max([X 1]ᵀ[X 1])/(4N) + l2 (the objective's smoothness), except the short or
saturated runs (`huge_logits*`): above 2/L gradient descent is chaotic, and two float64 runs of the very same
contract drift apart by 1e-5 within 30 steps, so no tolerance could separate right from wrong there.
"""
from __future__ import annotations

import numpy as np
import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint, uniform

_OMIT = object()  # call without the argument, so its default is used


def smoothness(X: np.ndarray, l2: float) -> float:
    """L = λ_max([X 1]ᵀ[X 1])/(4N) + l2: the gradient of J is L-Lipschitz, so lr ≤ 1/L descends steadily."""
    A = np.hstack([X.astype(np.float64), np.ones((X.shape[0], 1))])  # [N, D + 1]
    return float(np.linalg.eigvalsh(A.T @ A).max()) / (4 * X.shape[0]) + l2


def _step_under(X: np.ndarray, l2: float, share: float = 1.0) -> float:
    """A round learning rate at or below share/L (two significant digits, rounded down)."""
    bound = share / smoothness(X, l2)
    scale = 10.0 ** np.floor(np.log10(bound)) / 10
    return float(f"{np.floor(bound / scale) * scale:.2g}")


def _normal(g: torch.Generator, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).numpy()


def _labels(g: torch.Generator, X: np.ndarray, noise: float = 1.0) -> np.ndarray:
    """0/1 labels from a random linear rule with logistic noise: neither separable nor hopeless."""
    w = _normal(g, (X.shape[1],))
    z = X @ w / max(1e-9, float(np.abs(X @ w).std() or 1.0)) * 2 + 0.3
    u = torch.rand(X.shape[0], generator=g, dtype=torch.float64).numpy()
    return (u < 1 / (1 + np.exp(-z / noise))).astype(np.int64)


def _as_kind(y: np.ndarray, kind: str, dtype) -> np.ndarray:
    if kind == "bool":
        return y.astype(bool)
    if kind == "float":
        return y.astype(dtype)
    return y.astype(np.int64)


def _args(X, y, lr=_OMIT, n_iters=_OMIT, l2=_OMIT, *, dtype=np.float64, labels="int") -> Inputs:
    X = np.ascontiguousarray(X, dtype=dtype)
    args = {"X": X, "y": _as_kind(np.asarray(y), labels, dtype)}
    for name, value in (("lr", lr), ("n_iters", n_iters), ("l2", l2)):
        if value is not _OMIT:
            args[name] = value
    return Inputs(args=args)


def _data(N: int, D: int, *, scale: float = 1.0, lr=_OMIT, n_iters=_OMIT, l2=_OMIT, dtype=np.float64,
          labels="int", share: float | None = None, check: bool = True):
    """N points in D dims around an offset mean; lr (when given) is checked against 1/L, or chosen as share/L."""
    def make(g: torch.Generator) -> Inputs:
        X = _normal(g, (N, D), scale) + scale * np.round(_normal(g, (1, D), 0.5), 1)
        y = _labels(g, X)
        penalty = 0.0 if l2 is _OMIT else l2
        step = _step_under(X, penalty, share) if share is not None else lr
        if check and step is not _OMIT:
            assert step <= 1 / smoothness(X, penalty), f"lr {step} above 1/L = {1 / smoothness(X, penalty)}"
        return _args(X, y, step, n_iters, l2, dtype=dtype, labels=labels)
    return make


def _large_lr(g: torch.Generator) -> Inputs:
    # lr = 3.0 on features small enough that 3.0 stays under 1/L (and so under 2/L).
    X = _normal(g, (24, 3), 0.3)
    assert 3.0 <= 1 / smoothness(X, 0.01)
    return _args(X, _labels(g, X), 3.0, 40, 0.01)


def _single_point(g: torch.Generator) -> Inputs:
    # N = 1, D = 1: the loss falls towards 0 as w·x + b grows on the point's side.
    x = round(uniform(g, 0.5, 1.5), 2) * pick(g, [-1.0, 1.0])
    return _args(np.array([[x]]), np.array([1]), 0.5, 30)


def _one_class(label: int, l2: float):
    def make(g: torch.Generator) -> Inputs:
        X = _normal(g, (12, 2)) + 0.5
        return _args(X, np.full(12, label), _step_under(X, l2), 50, l2)
    return make


def _huge_logits(dtype):
    def make(g: torch.Generator) -> Inputs:
        # X = ±1e4: after one step the logits are 1e4–1e7, and the two copies of the first point carry
        # opposite labels, so one of them is misclassified by the whole margin at every step: its loss is
        # that margin, exactly (no log(0), no p clipped to 1e-15). A saturated run: σ is exactly 0 or 1.
        sign = pick(g, [-1.0, 1.0])
        X = sign * np.array([[1e4, 0], [1e4, 0], [-1e4, 1e4], [0, -1e4], [2e4, 1e4], [-1e4, -2e4], [5e3, 2e4]]) + 0.0
        y = np.array([1, 0, 1, 0, 1, 0, 1])
        return _args(X, y, 0.1, 6, 0.0, dtype=dtype)
    return make


def _separable(lr: float | None, n_iters: int):
    def make(g: torch.Generator) -> Inputs:
        # Features at scale 20 and labels from a linear rule: separable, so w grows without end. With lr = 0.1
        # (far above 1/L, but saturated: σ' ≈ 0 past the first steps, float64 runs agree to 5e-16) the logits
        # pass 37, where a plain sigmoid rounds σ to exactly 1 and log(1 − p) = −inf.
        X = _normal(g, (80, 2), 20.0)
        w = np.array([1.0, -0.5])
        X = X[np.abs(X @ w) > 4.0][:20]
        y = (X @ w > 0).astype(np.int64)
        return _args(X, y, lr if lr is not None else _step_under(X, 0.0), n_iters, 0.0)
    return make


def _random(g: torch.Generator) -> Inputs:
    N, D = randint(g, 1, 40), randint(g, 1, 6)
    dtype = pick(g, [np.float32, np.float64, np.float64])
    scale = pick(g, [0.3, 1.0, 1.0, 3.0])
    X = _normal(g, (N, D), scale) + scale * np.round(_normal(g, (1, D), 0.5), 1)
    l2 = pick(g, [0.0, 0.0, 0.01, 0.1, 1.0])
    lr = _step_under(X, l2, pick(g, [0.3, 0.6, 1.0]))
    return _args(X, _labels(g, X, pick(g, [0.3, 1.0])), lr, randint(g, 1, 60), l2, dtype=dtype,
                 labels=pick(g, ["int", "int", "float", "bool"]))


FAMILIES = (
    Family("defaults", _data(20, 3)),
    Family("basic", _data(20, 3, lr=0.1, n_iters=50, l2=0.0)),
    Family("l2", _data(20, 3, n_iters=50, l2=0.1, share=1.0)),
    Family("strong_l2", _data(16, 4, n_iters=60, l2=1.0, share=1.0)),
    Family("n_iters_zero", _data(10, 3, lr=0.1, n_iters=0, l2=0.1)),
    Family("n_iters_one", _data(10, 3, lr=0.1, n_iters=1, l2=0.1)),
    Family("lr_zero", _data(10, 3, lr=0.0, n_iters=5, l2=0.1)),
    Family("large_lr", _large_lr),
    Family("float32", _data(40, 4, n_iters=100, l2=0.0, share=1.0, dtype=np.float32)),
    Family("float32_l2", _data(40, 4, n_iters=100, l2=0.05, share=0.5, dtype=np.float32)),
    Family("bool_labels", _data(20, 3, n_iters=40, l2=0.1, share=1.0, labels="bool")),
    Family("bool_labels_float32", _data(20, 3, n_iters=40, l2=0.0, share=1.0, dtype=np.float32, labels="bool")),
    Family("float_labels", _data(20, 3, n_iters=40, l2=0.1, share=1.0, labels="float")),
    Family("float_labels_float32", _data(20, 3, n_iters=40, l2=0.0, share=1.0, dtype=np.float32, labels="float")),
    Family("single_point", _single_point),
    Family("one_class_positive", _one_class(1, 0.0)),
    Family("one_class_negative", _one_class(0, 0.1)),
    Family("huge_logits", _huge_logits(np.float64)),
    Family("huge_logits_float32", _huge_logits(np.float32)),
    Family("separable_scale_20", _separable(0.1, 30)),
    Family("separable_scale_20_slow", _separable(None, 100)),
    Family("wide", _data(6, 10, n_iters=50, l2=0.1, share=1.0)),
    Family("random", _random, draws=80),
)


# ---------------------------------------------------------------- how a result is judged


def tolerance_for(case, item: str, dtype: torch.dtype, expected):
    """b: the dtype's atol times max(1, |b|) (a bias of 300 is known to 300·eps, not to 1e-9); the rest: default."""
    if item != "b" or expected is None:
        return None
    rtol, atol = case.inputs.tol or spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
    return rtol, atol * max(1.0, float(abs(expected)))


# ---------------------------------------------------------------- known mistakes


def _variant(*, loss="exact", penalty="half", bias_penalised=False, mean=True, loss_after=False,
             sequential=False, ascend=False, cast="yes", losses_like="X", clip=1e-15):
    """The reference's loop with one switch turned.

    loss: "exact" (logaddexp), "naive" (log of a plain sigmoid: log(0) = −inf once σ rounds to 0 or 1),
        "softplus" (log(1 + exp(z)): overflows to inf), "clipped" (p clipped to [1e-15, 1 − 1e-15], as
        sklearn's log_loss; `clip` is the bound: 1e-7 is Keras' epsilon).
    penalty: "half" ((l2/2)‖w‖², gradient l2·w), "full" (l2‖w‖², gradient 2·l2·w), "over_n" ((l2/2N)‖w‖²,
        gradient l2·w/N), "loss_only" (l2‖w‖² in the loss, l2·w in the gradient), "gradient_only" ((l2/2)‖w‖² in
        the loss, 2·l2·w in the gradient), "over_n_gradient" / "over_n_loss" (the 1/N in that place alone).
    bias_penalised: True (in the loss and the gradient), "loss" or "gradient" (in that place alone).
    mean: True, False (the data term summed in the loss and the gradient), "loss_summed" or "gradient_summed".
    cast: "yes" (y.astype(X.dtype)), "int" (bool labels turned int64, as `1 - y` does: int labels promote
        float32 arithmetic to float64), "raw" (y as given, negated once: `-y` is a TypeError on a bool array),
        "asis" (y as given, never negated: bools pass, ints promote).
    losses_like: "X" (losses preallocated in X's dtype) or "w" (collected in a list: they follow w's dtype,
        float64 once int labels promoted it).
    """
    def fit(X, y, lr=0.1, n_iters=100, l2=0.0):
        N, D = X.shape
        dtype = X.dtype
        if cast == "yes":
            y = y.astype(dtype)
        elif cast == "int" and y.dtype == bool:  # "raw" and "asis" keep y as given
            y = 1 - (1 - y)  # what `1 - y` makes of bools: int64, which promotes float32 arithmetic
        w = np.zeros(D, dtype=dtype)
        b = dtype.type(0)
        losses = np.empty(n_iters, dtype=dtype)
        scale = 1 / N if mean in (True, "loss_summed") else 1.0  # the gradient's
        loss_scale = 1 / N if mean in (True, "gradient_summed") else 1.0
        in_loss = {"half": l2 / 2, "full": l2, "over_n": l2 / (2 * N), "loss_only": l2, "gradient_only": l2 / 2,
                   "over_n_gradient": l2 / 2, "over_n_loss": l2 / (2 * N)}[penalty]  # the penalty's weight in the loss
        for t in range(n_iters):
            z = X @ w + b
            with np.errstate(all="ignore"):
                p = 1 / (1 + np.exp(-z))
                if loss == "exact":
                    data = np.logaddexp(0, z) + (-y) * z if cast == "raw" else np.logaddexp(0, z) - y * z
                elif loss == "softplus":
                    data = np.log(1 + np.exp(z)) - y * z
                else:
                    q = np.clip(p, clip, 1 - clip) if loss == "clipped" else p
                    data = -(y * np.log(q) + (1 - y) * np.log(1 - q))
            reg = in_loss * (w @ w)
            if bias_penalised in (True, "loss"):
                reg = reg + in_loss * b * b
            r = (p if loss != "exact" else np.exp(-np.logaddexp(0, -z))) - y
            decay = {"half": l2, "full": 2 * l2, "over_n": l2 / N, "loss_only": l2, "gradient_only": 2 * l2,
                     "over_n_gradient": l2 / N, "over_n_loss": l2}[penalty]
            grad_w = X.T @ r * scale + decay * w
            grad_b = np.sum(r) * scale + (decay * b if bias_penalised in (True, "gradient") else 0)
            sign = -1 if ascend else 1
            if not loss_after:
                losses[t] = np.sum(data) * loss_scale + reg
            w = w - sign * lr * grad_w
            if sequential:
                r = np.exp(-np.logaddexp(0, -(X @ w + b))) - y
                grad_b = np.sum(r) * scale + (decay * b if bias_penalised in (True, "gradient") else 0)
            b = b - sign * lr * grad_b
            if loss_after:
                z = X @ w + b
                reg = in_loss * (w @ w)
                losses[t] = np.sum(np.logaddexp(0, z) - y * z) * loss_scale + reg
        return w, float(b), losses if losses_like == "X" else losses.astype(w.dtype)
    return fit


MISTAKES = (
    Mistake("sigmoid_overflow", _variant(loss="naive")),
    Mistake("sigmoid_overflow", _variant(loss="softplus")),
    Mistake("clipped_log", _variant(loss="clipped")),
    Mistake("clipped_log", _variant(loss="clipped", clip=1e-7)),
    Mistake("clipped_log", _variant(loss="clipped", clip=1e-8)),
    Mistake("clipped_log", _variant(loss="clipped", clip=1e-12)),
    Mistake("bias_penalised", _variant(bias_penalised=True)),
    Mistake("bias_penalised", _variant(bias_penalised="loss")),
    Mistake("bias_penalised", _variant(bias_penalised="gradient")),
    Mistake("l2_not_halved", _variant(penalty="full")),
    Mistake("l2_not_halved", _variant(penalty="loss_only")),
    Mistake("l2_not_halved", _variant(penalty="gradient_only")),
    Mistake("l2_over_n", _variant(penalty="over_n")),
    Mistake("l2_over_n", _variant(penalty="over_n_gradient")),
    Mistake("l2_over_n", _variant(penalty="over_n_loss")),
    Mistake("sum_not_mean", _variant(mean=False)),
    Mistake("sum_not_mean", _variant(mean="loss_summed")),
    Mistake("sum_not_mean", _variant(mean="gradient_summed")),
    Mistake("loss_after_update", _variant(loss_after=True)),
    Mistake("sequential_update", _variant(sequential=True)),
    Mistake("gradient_ascent", _variant(ascend=True)),
    Mistake("labels_not_cast", _variant(cast="int")),
    Mistake("labels_not_cast", _variant(cast="int", losses_like="w")),
    Mistake("labels_not_cast", _variant(cast="raw")),
    Mistake("labels_not_cast", _variant(cast="raw", losses_like="w")),
    Mistake("labels_not_cast", _variant(cast="asis")),
    Mistake("labels_not_cast", _variant(cast="asis", losses_like="w")),
)

# `kata check logistic-regression --bench`: 100 steps on 10k points in 50 dims.
BENCH = ("X [10000, 50], 100 steps", lambda g: _args(_normal(g, (10000, 50)) * 0.3,
                                                     (torch.rand(10000, generator=g) < 0.5).numpy(), 0.1, 100, 0.01))
