"""Linear regression with an L2 penalty on the weights, in closed form or by full-batch gradient descent, in NumPy.

The model ŷ_i = x_i·w + b is fitted by minimising half the mean squared error plus a ridge penalty on the weights
only (Hastie, Tibshirani & Friedman, "The Elements of Statistical Learning", 2nd ed., §3.4.1, eq. 3.41–3.44: the
intercept is left out of the penalty and estimated by centring; Bishop, "Pattern Recognition and Machine
Learning", 2006, §3.1.4, eq. 3.27–3.28):

    J(w, b) = (1/(2N))·Σ_i (x_i·w + b − y_i)² + (l2/2)·‖w‖²
    ∇w J = Xᵀr/N + l2·w,   ∂b J = mean(r),   r = X·w + b − y

Setting both to zero gives the closed form on the centred data X_c = X − x̄, y_c = y − ȳ:

    w = (X_cᵀX_c + N·l2·I)⁻¹ X_cᵀy_c,   b = ȳ − x̄·w

which is scikit-learn's `Ridge(alpha=N·l2, fit_intercept=True)` (its objective is ‖r‖² + alpha·‖w‖², 2N times J)
and `LinearRegression()` at l2 = 0. The gradient-descent half takes the same objective's steps from zero, as
`torch.optim.SGD(weight_decay=l2)` on w only does with ½·`mse_loss`.
"""
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    """X [N, D] float32/float64, y [N] of X's dtype. Returns (w [D] in X's dtype, b float)."""
    assert X.ndim == 2 and X.shape[0] >= 1 and X.shape[1] >= 1, f"X must be [N, D], got shape {X.shape}"
    assert y.shape == (X.shape[0],), f"y must be [N] = [{X.shape[0]}], got shape {y.shape}"
    if method == "closed_form":
        return _closed_form(X, y, l2)
    if method == "gd":
        return _gradient_descent(X, y, l2, lr, n_iters)
    raise ValueError(f"unknown method {method!r}: expected 'closed_form' or 'gd'")


def _closed_form(X, y, l2):
    """The exact minimiser, solved in float64 on centred data and cast back to X's dtype."""
    N, D = X.shape
    X64, y64 = X.astype(np.float64), y.astype(np.float64)
    x_mean, y_mean = X64.mean(axis=0), y64.mean()  # [D], scalar
    Xc, yc = X64 - x_mean, y64 - y_mean  # [N, D], [N]: the intercept drops out of the normal equations
    A = Xc.T @ Xc + N * l2 * np.eye(D)  # [D, D]: N·l2, because J's data term is a mean and its penalty is (l2/2)‖w‖²
    w = np.linalg.solve(A, Xc.T @ yc)  # [D]
    b = y_mean - x_mean @ w  # the unpenalised intercept: the fitted plane passes through (x̄, ȳ)
    return w.astype(X.dtype), float(b)


def _gradient_descent(X, y, l2, lr, n_iters):
    """n_iters full-batch steps from zero, both gradients at the parameters the step starts from."""
    N, D = X.shape
    dtype = X.dtype
    w = np.zeros(D, dtype=dtype)  # [D]
    b = dtype.type(0)
    for _ in range(n_iters):
        r = X @ w + b - y  # [N] residual of the current (w, b)
        grad_w = X.T @ r / N + l2 * w  # [D]
        grad_b = np.mean(r)  # the bias is not penalised
        w, b = w - lr * grad_w, b - lr * grad_b  # simultaneous update
    return w, float(b)
