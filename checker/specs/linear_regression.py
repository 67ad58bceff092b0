"""Case families for `linear-regression` (NumPy): ½·MSE + (l2/2)‖w‖² with an unpenalised bias, solved in closed form
or by full-batch gradient descent.

Closed-form cases with l2 = 0 have a unique answer (N ≥ D + 2 points in general position); with l2 > 0 they may
have fewer points than features, or one point. Gradient-descent cases keep lr ≤ 1/L, L = λ_max([X 1]ᵀ[X 1])/N + l2
(the objective's smoothness), so two right orders of floating-point operations stay together; the named ones are
short (1, 5, 50 steps): a converged run would hide a wrong gradient scale.

Each case's tolerance is the dtype's (rtol, atol) with atol × max(1, max|w|, |b|) of the float64 answer, for w and
b alike: a bias of 1000 is known to 1000·eps, and so is every weight solved with it.
"""
from __future__ import annotations

import numpy as np
import torch

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import float_of, is_float_scalar, split_outputs
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._rl import pick, randint, uniform

_OMIT = object()  # call without the argument, so its default is used
_DEFAULTS = {"method": "closed_form", "l2": 0.0, "lr": 0.01, "n_iters": 1000}
_TORCH = {np.dtype(np.float32): torch.float32, np.dtype(np.float64): torch.float64}


def smoothness(X: np.ndarray, l2: float) -> float:
    """L = λ_max([X 1]ᵀ[X 1])/N + l2: J's gradient is L-Lipschitz, so lr ≤ 1/L descends steadily."""
    A = np.hstack([X.astype(np.float64), np.ones((X.shape[0], 1))])  # [N, D + 1]
    return float(np.linalg.eigvalsh(A.T @ A).max()) / X.shape[0] + l2


def _step_under(X: np.ndarray, l2: float, share: float = 1.0) -> float:
    """A round learning rate at or below share/L (two significant digits, rounded down)."""
    bound = share / smoothness(X, l2)
    scale = 10.0 ** np.floor(np.log10(bound)) / 10
    return float(f"{np.floor(bound / scale) * scale:.2g}")


def fit64(X: np.ndarray, y: np.ndarray, method: str, l2: float, lr: float, n_iters: int) -> tuple[np.ndarray, float]:
    """The contract in float64, written apart from the reference and without its loop: a least-squares solve of the
    centred data stacked with √(N·l2)·I, or gradient descent in the eigenbasis of J's Hessian H = AᵀA/N + l2·P
    (A = [X 1], P = I without its bias entry): from 0, θ_t = V·diag((1 − (1 − lr·λ)^t)/λ)·Vᵀ·Aᵀy/N, the factor lr·t
    where λ = 0. Sets each case's tolerance scale (and checks the reference in the kata's tests)."""
    X, y = X.astype(np.float64), y.astype(np.float64)
    N, D = X.shape
    if method == "closed_form":
        xm, ym = X.mean(0), y.mean()
        A = np.vstack([X - xm, np.sqrt(N * l2) * np.eye(D)])  # [N + D, D]
        w = np.linalg.lstsq(A, np.concatenate([y - ym, np.zeros(D)]), rcond=None)[0]
        return w, float(ym - xm @ w)
    if n_iters == 0 or lr == 0:
        return np.zeros(D), 0.0
    A = np.hstack([X, np.ones((N, 1))])  # [N, D + 1]
    lam, V = np.linalg.eigh(A.T @ A / N + l2 * np.diag(np.r_[np.ones(D), 0.0]))
    with np.errstate(divide="ignore", invalid="ignore"):
        shrink = -np.expm1(n_iters * np.log1p(-lr * lam)) / lam  # (1 − (1 − lr·λ)^t)/λ, exact for small lr·λ
    shrink = np.where(np.abs(lam) > 1e-12, shrink, lr * n_iters)
    theta = V @ (shrink * (V.T @ (A.T @ y / N)))  # [D + 1]
    return theta[:D], float(theta[D])


def _normal(g: torch.Generator, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).numpy()


def _targets(g: torch.Generator, X: np.ndarray, intercept: float | None = None, noise: float = 0.5) -> np.ndarray:
    """y = X·w + b + noise for a random w and b (b drawn unless given)."""
    w = _normal(g, (X.shape[1],))
    b = float(_normal(g, (1,), 2.0)[0]) if intercept is None else intercept
    return X @ w + b + _normal(g, (X.shape[0],), noise)


def _args(X, y, method=_OMIT, l2=_OMIT, lr=_OMIT, n_iters=_OMIT, *, dtype=np.float64) -> Inputs:
    """The call's keywords (the omitted ones left to their defaults) and the case's tolerance."""
    X = np.ascontiguousarray(X, dtype=dtype)
    y = np.ascontiguousarray(y, dtype=dtype)
    args = {"X": X, "y": y}
    for name, value in (("method", method), ("l2", l2), ("lr", lr), ("n_iters", n_iters)):
        if value is not _OMIT:
            args[name] = value
    used = {**_DEFAULTS, **{k: v for k, v in args.items() if k in _DEFAULTS}}
    w, b = fit64(X, y, used["method"], used["l2"], used["lr"], used["n_iters"])
    rtol, atol = spec_api.TOLERANCES[_TORCH[X.dtype]]
    scale = max([1.0, abs(b)] + [float(np.abs(w).max())])
    return Inputs(args=args, tol=(rtol, atol * scale))


def _points(N: int, D: int, *, offset: float = 0.5, scale: float = 1.0) -> callable:
    return lambda g: _normal(g, (N, D), scale) + np.round(_normal(g, (1, D), offset), 1)


def _closed(N: int, D: int, l2=_OMIT, *, method="closed_form", offset: float = 0.5, intercept: float | None = None,
            dtype=np.float64):
    def make(g: torch.Generator) -> Inputs:
        X = _points(N, D, offset=offset)(g)
        return _args(X, _targets(g, X, intercept), method, l2, dtype=dtype)
    return make


def _gd(N: int, D: int, n_iters=_OMIT, l2=_OMIT, *, share: float | None = 1.0, lr=_OMIT, dtype=np.float64):
    """Gradient descent on N points in D dims: lr = share/L (rounded down) unless given, and checked against 1/L."""
    def make(g: torch.Generator) -> Inputs:
        X = _points(N, D)(g)
        penalty = 0.0 if l2 is _OMIT else l2
        step = lr if lr is not _OMIT or share is None else _step_under(X, penalty, share)
        assert (step if step is not _OMIT else 0.01) <= 1 / smoothness(X, penalty), "lr above 1/L"
        return _args(X, _targets(g, X), "gd", l2, step, n_iters, dtype=dtype)
    return make


def _exact_fit(g: torch.Generator) -> Inputs:
    # Small integers on both sides: y = X·w + b with no noise, so the residual is 0 and w, b come back exactly.
    X = np.round(_normal(g, (12, 3), 3.0))
    w, b = np.array([2.0, -1.0, 0.5]), float(pick(g, [-3.0, 4.0, 7.0]))
    return _args(X, X @ w + b, "closed_form", 0.0)


def _single_point(method: str):
    def make(g: torch.Generator) -> Inputs:
        # N = 1: the centred data are zero, so any penalty gives w = 0 and b = y₀ (closed form); GD walks towards it.
        X = np.round(_normal(g, (1, 3)), 2)
        y = np.round(_normal(g, (1,), 2.0), 2)
        if method == "closed_form":
            return _args(X, y, "closed_form", 0.1)
        return _args(X, y, "gd", 0.1, _step_under(X, 0.1), 20)
    return make


def _offset(l2: float):
    def make(g: torch.Generator) -> Inputs:
        # Features 100 from the origin with spread 1: uncentred normal equations square a condition number of ~1e2.
        X = _normal(g, (30, 3)) + 100.0 + np.arange(3)
        return _args(X, _targets(g, X), "closed_form", l2)
    return make


def _unknown_method(g: torch.Generator) -> Inputs:
    X = _points(10, 2)(g)
    inputs = Inputs(args={"X": X, "y": _targets(g, X), "method": pick(g, ["sgd", "normal", "ols"])}, raises="ValueError")
    inputs.show = {"method": inputs.args["method"]}
    return inputs


def _random_closed(g: torch.Generator) -> Inputs:
    dtype = pick(g, [np.float32, np.float64, np.float64])
    l2 = pick(g, [0.0, 0.0, 0.01, 0.1, 1.0, 10.0])
    D = randint(g, 1, 6)
    # float32: N ≥ 4D + 8 and offsets within the spread keep [X 1]'s condition number small, so even inverted
    # float32 normal equations pass (tests/katas/classic/test_linear_regression_specs.py measures the margin)
    low = 4 * D + 8 if dtype is np.float32 else (D + 2 if l2 == 0 else 1)
    N = randint(g, low, max(low, 40))
    scale = pick(g, [0.3, 1.0, 1.0, 3.0])
    X = _points(N, D, offset=0.5 * scale if dtype is np.float32 else 2.0, scale=scale)(g)
    noise = pick(g, [0.0, 0.1, 1.0])
    return _args(X, _targets(g, X, noise=noise * scale), "closed_form", l2, dtype=dtype)


def _random_gd(g: torch.Generator) -> Inputs:
    N, D = randint(g, 1, 40), randint(g, 1, 6)
    dtype = pick(g, [np.float32, np.float64, np.float64])
    scale = pick(g, [0.3, 1.0, 1.0, 3.0])
    X = _points(N, D, scale=scale)(g)
    l2 = pick(g, [0.0, 0.0, 0.01, 0.1, 1.0])
    lr = _step_under(X, l2, pick(g, [0.3, 0.6, 1.0]))
    return _args(X, _targets(g, X, noise=uniform(g, 0.0, 1.0)), "gd", l2, lr, randint(g, 1, 60), dtype=dtype)


FAMILIES = (
    Family("defaults", _closed(20, 3, method=_OMIT)),
    Family("unknown_method", _unknown_method),
    Family("closed_form_ols", _closed(30, 4, 0.0)),
    Family("closed_form_l2", _closed(25, 3, 0.1)),
    Family("closed_form_strong_l2", _closed(20, 4, 10.0)),
    Family("closed_form_wide", _closed(5, 8, 0.5)),
    Family("closed_form_single_point", _single_point("closed_form")),
    Family("closed_form_one_feature", _closed(15, 1, 0.0)),
    Family("closed_form_offset_100", _offset(0.0)),
    Family("closed_form_offset_100_l2", _offset(0.1)),
    Family("closed_form_intercept_1000", _closed(20, 3, 0.1, intercept=1000.0)),
    Family("closed_form_exact_fit", _exact_fit),
    Family("closed_form_float32", _closed(40, 3, 0.0, dtype=np.float32)),
    Family("closed_form_float32_l2", _closed(40, 3, 0.1, dtype=np.float32)),
    Family("gd_one_step", _gd(20, 3, 1, 0.1)),
    Family("gd_five_steps", _gd(20, 3, 5, 0.1)),
    Family("gd_fifty_steps_l2", _gd(20, 3, 50, 0.5)),
    Family("gd_no_penalty", _gd(20, 3, 5, 0.0)),
    Family("gd_zero_steps", _gd(10, 3, 0, 0.1, lr=0.1, share=None)),
    Family("gd_lr_zero", _gd(10, 3, 5, 0.1, lr=0.0, share=None)),
    Family("gd_default_n_iters", _gd(20, 3, l2=0.1, share=None)),
    Family("gd_float32", _gd(40, 4, 100, 0.05, dtype=np.float32)),
    Family("gd_single_point", _single_point("gd")),
    Family("random_closed_form", _random_closed, draws=45),
    Family("random_gd", _random_gd, draws=45),
)


# ---------------------------------------------------------------- how a variant is recognised

_BLOWN_UP = 1e30  # far past any answer of a case (|w|, |b| stay below 1e4): a run that diverged


def _diverged(items: dict) -> bool:
    """Whether an outcome's w or b is non-finite or past _BLOWN_UP: a run that diverged."""
    for value in items.values():
        if isinstance(value, TensorValue) and value.data is not None and value.data.is_floating_point():
            data = value.data.double()
            if data.numel() and not bool((data.abs() < _BLOWN_UP).all()):  # NaN compares False: counted
                return True
        elif is_float_scalar(value) and not abs(float_of(value)) < _BLOWN_UP:
            return True
    return False


def matches(kata, case, expected: list[Outcome], variant: Outcome, got: Outcome) -> bool | None:
    """A summed or uphill gradient diverges; where it does, whether the values come out as 1e156, inf or NaN
    depends on the dtype the loop ran in (float64 inside a float32 case overflows later). Two diverged runs with
    the same shapes and dtypes are one mistake's; otherwise the generic comparison."""
    if case.inputs.raises is not None:
        return None
    mine, _ = split_outputs(kata, variant.value)
    theirs, _ = split_outputs(kata, got.value)
    if mine is None or theirs is None or not _diverged(mine):
        return None
    alike = all(isinstance(theirs[n], TensorValue) and (theirs[n].shape, theirs[n].dtype) == (v.shape, v.dtype)
                for n, v in mine.items() if isinstance(v, TensorValue))
    return alike and _diverged(theirs)


# ---------------------------------------------------------------- known mistakes


def _variant(where="both", **switches):
    """The reference with one switch turned, in both methods or only in `where` ("closed_form" or "gd").

    penalty_n: the closed form's penalty is N·l2·I (True) or l2·I (False: scikit-learn's Ridge(alpha=l2)).
    decay: the factor on l2·w in the gradient (2: the penalty l2‖w‖² instead of (l2/2)‖w‖²; its closed form 2N·l2);
        decay_over_n: l2·w/N in the gradient (Andrew Ng's λ/m).
    bias_penalised: the closed form solves [X 1] uncentred with the penalty on every entry; GD adds l2·b to ∂b.
    intercept: "centred" (right), "none" (no bias at all: b = 0), "mean_y" (w on centred data, b = ȳ),
        "mean_y_uncentred" (w from the raw normal equations, b = ȳ), "mean_y_raw_x" (only y centred, b = ȳ).
    data_grad: "half" (right), "mse" (2·Xᵀr/N: the gradient of the MSE without the ½), "sum" (Xᵀr: not averaged).
    sequential: None, "w_first" (∂b from the updated w), "b_first" (∇w from the updated b).
    extra_steps: n_iters + extra_steps steps. residual_flipped: r = y − ŷ with the same update.
    unknown: "raise", "gd" or "closed_form" (what an unknown method falls through to).
    keep_dtype: False returns w in float64 for float32 X (np.eye / np.zeros left in float64).
    inner64: the descent runs in float64 and w is cast back (a float64 np.zeros(D) start, then .astype(X.dtype)).
    y_column: y reshaped to [N, 1], so w comes back [D, 1].
    centre_in_place: X and y centred with -= (the caller's arrays change).
    """
    def fit(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
        if method not in ("closed_form", "gd"):
            if switches.get("unknown", "raise") == "raise":
                raise ValueError(f"unknown method {method!r}")
            method = switches["unknown"]
        how = switches if where in ("both", method) else {}
        dtype = X.dtype
        if how.get("y_column", False):
            y = y.reshape(-1, 1)
        with np.errstate(all="ignore"):  # the uphill and unaveraged steps overflow on the longer runs
            if method == "closed_form":
                w, b = _closed_form(X, y, l2, **how)
            else:
                w, b = _descent(X, y, l2, lr, n_iters, **how)
        return (w.astype(dtype) if how.get("keep_dtype", True) else w), float(np.ravel(b)[0])
    return fit


def _closed_form(X, y, l2, *, penalty_n=True, decay=1.0, bias_penalised=False, intercept="centred",
                 centre_in_place=False, **_):
    N, D = X.shape
    scale = (N if penalty_n else 1.0) * decay
    if bias_penalised:
        A = np.hstack([X.astype(np.float64), np.ones((N, 1))])
        theta = np.linalg.solve(A.T @ A + scale * l2 * np.eye(D + 1), A.T @ y.astype(np.float64))
        return theta[:D], theta[D]
    if centre_in_place:
        x_mean, y_mean = X.mean(axis=0), y.mean()
        X -= x_mean  # the caller's X and y are centred too
        y -= y_mean
        Xc, yc, xm, ym = X.astype(np.float64), y.astype(np.float64), x_mean.astype(np.float64), float(y_mean)
    else:
        X64, y64 = X.astype(np.float64), y.astype(np.float64)
        xm, ym = X64.mean(axis=0), y64.mean()
        Xc, yc = X64 - xm, y64 - ym
    if intercept in ("none", "mean_y_uncentred", "mean_y_raw_x"):
        raw = X.astype(np.float64)
        target = yc if intercept == "mean_y_raw_x" else y.astype(np.float64)
        w = np.linalg.solve(raw.T @ raw + scale * l2 * np.eye(D), raw.T @ target)
        return w, (0.0 if intercept == "none" else ym)
    w = np.linalg.solve(Xc.T @ Xc + scale * l2 * np.eye(D), Xc.T @ yc)
    return w, (ym if intercept == "mean_y" else ym - xm @ w)


def _descent(X, y, l2, lr, n_iters, *, decay=1.0, decay_over_n=False, bias_penalised=False, intercept="centred",
             data_grad="half", sequential=None, extra_steps=0, residual_flipped=False, keep_dtype=True, inner64=False,
             **_):
    N, D = X.shape
    if inner64:  # the loop in float64 (w = np.zeros(D)), cast back at the end: a diverging run stays finite longer
        X, y, keep_dtype = X.astype(np.float64), y.astype(np.float64), False
    w = np.zeros((D,) + y.shape[1:], dtype=X.dtype if keep_dtype else np.float64)  # [D] ([D, 1] for a column y)
    b = X.dtype.type(0)
    k = l2 * decay / (N if decay_over_n else 1)
    mult = {"half": 1.0 / N, "mse": 2.0 / N, "sum": 1.0}[data_grad]

    def residual(w, b):
        return (y - (X @ w + b)) if residual_flipped else (X @ w + b - y)

    def grad_b(r, b):
        return np.sum(r) * mult + (l2 * b if bias_penalised else 0)

    for _ in range(max(0, n_iters + extra_steps)):
        r = residual(w, b)
        if sequential == "w_first":
            w = w - lr * (X.T @ r * mult + k * w)
            b = b - lr * grad_b(residual(w, b), b)
        elif sequential == "b_first":
            b = b - lr * grad_b(r, b)
            w = w - lr * (X.T @ residual(w, b) * mult + k * w)
        else:
            w, b = w - lr * (X.T @ r * mult + k * w), b - lr * grad_b(r, b)
        if intercept == "none":
            b = X.dtype.type(0)
    return w, b


MISTAKES = (
    Mistake("penalty_not_scaled_by_n", _variant(penalty_n=False, decay_over_n=True)),
    Mistake("penalty_not_scaled_by_n", _variant(penalty_n=False, where="closed_form")),
    Mistake("penalty_not_scaled_by_n", _variant(decay_over_n=True, where="gd")),
    Mistake("l2_gradient_doubled", _variant(decay=2.0)),
    Mistake("l2_gradient_doubled", _variant(decay=2.0, where="gd")),
    Mistake("bias_penalised", _variant(bias_penalised=True)),
    Mistake("bias_penalised", _variant(bias_penalised=True, where="closed_form")),
    Mistake("bias_penalised", _variant(bias_penalised=True, where="gd")),
    Mistake("no_intercept", _variant(intercept="none")),
    Mistake("no_intercept", _variant(intercept="none", where="closed_form")),
    Mistake("no_intercept", _variant(intercept="none", where="gd")),
    Mistake("intercept_mean_y", _variant(intercept="mean_y")),
    Mistake("intercept_mean_y", _variant(intercept="mean_y_uncentred")),
    Mistake("intercept_mean_y", _variant(intercept="mean_y_raw_x")),
    Mistake("gradient_without_half", _variant(data_grad="mse")),
    Mistake("gradient_without_half", _variant(data_grad="mse", decay=2.0, where="gd")),  # of mean(r²) + l2‖w‖²
    Mistake("gradient_not_averaged", _variant(data_grad="sum", inner64=True)),  # diverges: finite in float64
    Mistake("sequential_update", _variant(sequential="w_first")),
    Mistake("sequential_update", _variant(sequential="b_first")),
    Mistake("steps_off_by_one", _variant(extra_steps=-1)),
    Mistake("steps_off_by_one", _variant(extra_steps=1)),
    Mistake("residual_sign_flipped", _variant(residual_flipped=True)),
    Mistake("unknown_method_accepted", _variant(unknown="gd")),
    Mistake("unknown_method_accepted", _variant(unknown="closed_form")),
    Mistake("float32_promoted", _variant(keep_dtype=False)),
    Mistake("float32_promoted", _variant(keep_dtype=False, where="closed_form")),
    Mistake("float32_promoted", _variant(keep_dtype=False, where="gd")),
    Mistake("y_as_column", _variant(y_column=True)),
    Mistake("input_centred_in_place", _variant(centre_in_place=True)),
)

# `kata check linear-regression --bench`: 100 gradient-descent steps on 10k points in 50 dims.
BENCH = ("X [10000, 50], gd 100 steps", lambda g: Inputs(args={
    "X": (X := _normal(g, (10000, 50), 0.3)), "y": X @ _normal(g, (50,)) + 1.0, "method": "gd", "lr": 0.1,
    "n_iters": 100, "l2": 0.01}))
