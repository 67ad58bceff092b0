# kata: linear-regression
# why: Ridge's alpha = l2 in the closed form and a summed gradient in GD: two mistakes at once
# mistake: none
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        xm, ym = X.mean(0), y.mean()
        w = np.linalg.solve((X - xm).T @ (X - xm) + l2 * np.eye(D), (X - xm).T @ (y - ym))
        return w.astype(X.dtype), float(ym - xm @ w)
    if method == "gd":
        w, b = np.zeros(D, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            r = X @ w + b - y
            w, b = w - lr * (X.T @ r + l2 * w), b - lr * r.sum()
        return w, float(b)
    raise ValueError(method)
