# kata: linear-regression
# why: the GD loop counts for it in range(1, n_iters), one step short
# mistake: steps_off_by_one
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        xm = X.mean(axis=0)
        ym = y.mean()
        w = np.linalg.solve((X - xm).T @ (X - xm) + N * l2 * np.eye(D), (X - xm).T @ (y - ym))
        return w.astype(X.dtype), float(ym - xm @ w)
    elif method == "gd":
        w = np.zeros(D, dtype=X.dtype)
        b = 0.0
        for it in range(1, n_iters):
            r = X @ w + b - y
            w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
        return w, float(b)
    else:
        raise ValueError(method)
