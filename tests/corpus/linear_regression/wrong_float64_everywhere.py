# kata: linear-regression
# why: np.eye(D) and np.zeros(D) in float64 promote float32 inputs, and w is never cast back
# mistake: float32_promoted
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        xm, ym = X.mean(axis=0), y.mean()
        w = np.linalg.solve((X - xm).T @ (X - xm) + N * l2 * np.eye(D), (X - xm).T @ (y - ym))
        return w, float(ym - xm @ w)
    if method == "gd":
        w, b = np.zeros(D), 0.0
        for _ in range(n_iters):
            r = X @ w + b - y
            w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
        return w, float(b)
    raise ValueError(method)
