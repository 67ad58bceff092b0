# kata: linear-regression
# why: centres only y, solves on the raw X, and takes mean(y) as the intercept
# mistake: intercept_mean_y
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        y_bar = y.mean()
        w = np.linalg.solve(X.T @ X + N * l2 * np.eye(D), X.T @ (y - y_bar))
        return w.astype(X.dtype), float(y_bar)
    if method == "gd":
        w, b = np.zeros(D, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            r = X @ w + b - y
            w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
        return w, float(b)
    raise ValueError(method)
