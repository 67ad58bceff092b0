# kata: linear-regression
# why: dispatches with dict.get(method, closed form), so an unknown method silently gets the closed form
# mistake: unknown_method_accepted
import numpy as np


def _exact(X, y, l2, lr, n_iters):
    N, D = X.shape
    xm, ym = X.mean(0), y.mean()
    w = np.linalg.solve((X - xm).T @ (X - xm) + N * l2 * np.eye(D), (X - xm).T @ (y - ym))
    return w.astype(X.dtype), float(ym - xm @ w)


def _descent(X, y, l2, lr, n_iters):
    N, D = X.shape
    w, b = np.zeros(D, dtype=X.dtype), 0.0
    for _ in range(n_iters):
        r = X @ w + b - y
        w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
    return w, float(b)


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    return {"closed_form": _exact, "gd": _descent}.get(method, _exact)(X, y, l2, lr, n_iters)
