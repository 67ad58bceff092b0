# kata: linear-regression
# why: centres X and y with -= to save memory, so the caller's arrays are changed
# mistake: input_centred_in_place
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        x_mean = X.mean(axis=0)
        y_mean = y.mean()
        X -= x_mean
        y -= y_mean
        w = np.linalg.solve(X.T @ X + N * l2 * np.eye(D), X.T @ y)
        return w.astype(X.dtype), float(y_mean - x_mean @ w)
    if method == "gd":
        w, b = np.zeros(D, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            r = X @ w + b - y
            w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
        return w, float(b)
    raise ValueError(method)
