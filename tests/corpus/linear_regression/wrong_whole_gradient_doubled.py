# kata: linear-regression
# why: GD on J = mean(r^2) + l2 * ||w||^2 written from the derivative of each term: every gradient twice too large
# mistake: gradient_without_half
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        xm, ym = X.mean(0), y.mean()
        w = np.linalg.solve((X - xm).T @ (X - xm) + N * l2 * np.eye(D), (X - xm).T @ (y - ym))
        return w.astype(X.dtype), float(ym - xm @ w)
    if method == "gd":
        w = np.zeros(D, dtype=X.dtype)
        b = 0.0
        for _ in range(n_iters):
            pred = X @ w + b
            dJ_dw = 2 * X.T @ (pred - y) / N + 2 * l2 * w
            dJ_db = 2 * np.mean(pred - y)
            w, b = w - lr * dJ_dw, b - lr * dJ_db
        return w, float(b)
    raise ValueError(method)
