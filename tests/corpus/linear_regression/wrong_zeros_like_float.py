# kata: linear-regression
# why: GD starts from np.zeros(X.shape[1]) (float64), so float32 inputs give float64 weights; the closed form casts back
# mistake: float32_promoted
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        xm, ym = X.mean(0), y.mean()
        w = np.linalg.solve((X - xm).T @ (X - xm) + N * l2 * np.eye(D), (X - xm).T @ (y - ym))
        return w.astype(X.dtype), float(ym - xm @ w)
    if method == "gd":
        w = np.zeros(X.shape[1])
        b = 0.0
        for _ in range(n_iters):
            r = X @ w + b - y
            w = w - lr * (X.T @ r / N + l2 * w)
            b = b - lr * np.mean(r)
        return w, float(b)
    raise ValueError(method)
