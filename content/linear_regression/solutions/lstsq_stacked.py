# kata: linear-regression
import numpy as np


def _ridge_lstsq(X, y, l2):
    # ridge as plain least squares: the centred rows, then sqrt(N * l2) * I with zero targets
    n, d = X.shape
    x_bar, y_bar = X.mean(axis=0), y.mean()
    rows = np.vstack([X - x_bar, np.sqrt(n * l2) * np.eye(d, dtype=X.dtype)])
    targets = np.concatenate([y - y_bar, np.zeros(d, dtype=X.dtype)])
    coef = np.linalg.lstsq(rows, targets, rcond=None)[0]
    return coef, y_bar - x_bar @ coef


def _descend(X, y, l2, lr, n_iters):
    n, d = X.shape
    coef = np.zeros(d, dtype=X.dtype)
    intercept = 0.0
    for _ in range(n_iters):
        err = X @ coef + intercept - y
        coef, intercept = coef - lr * (err @ X / n + l2 * coef), intercept - lr * err.mean()
    return coef, intercept


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    solvers = {"closed_form": lambda: _ridge_lstsq(X, y, l2), "gd": lambda: _descend(X, y, l2, lr, n_iters)}
    if method not in solvers:
        raise ValueError(f"unknown method: {method}")
    coef, intercept = solvers[method]()
    return coef.astype(X.dtype), float(intercept)
