# kata: linear-regression
# why: the closed form on [1, X] uncentred with N * l2 on every entry: the intercept is shrunk too (GD right)
# mistake: bias_penalised
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        Xa = np.column_stack([np.ones(N), X])
        beta = np.linalg.lstsq(Xa.T @ Xa + N * l2 * np.eye(D + 1), Xa.T @ y, rcond=None)[0]
        return beta[1:].astype(X.dtype), float(beta[0])
    if method == "gd":
        w = np.zeros(D, dtype=X.dtype)
        b = 0.0
        for _ in range(n_iters):
            e = X @ w + b - y
            gw = X.T @ e / N + l2 * w
            gb = np.mean(e)
            w = w - lr * gw
            b = b - lr * gb
        return w, float(b)
    raise ValueError(method)
