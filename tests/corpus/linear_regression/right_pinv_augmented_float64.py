# kata: linear-regression
# why: right: pinv of the augmented ridge system built in float64, GD on a stacked parameter vector with an in-place update
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    if method != "closed_form" and method != "gd":
        raise ValueError("method must be closed_form or gd")
    n, d = X.shape
    Z = np.c_[X.astype(float), np.ones(n)]
    pen = np.diag([n * l2] * d + [0.0])
    if method == "closed_form":
        params = np.linalg.pinv(Z.T @ Z + pen) @ (Z.T @ y)
    else:
        params = np.zeros(d + 1)
        for step in range(n_iters):
            g = Z.T @ (Z @ params - y) / n + pen @ params / n
            params -= lr * g
    return params[:d].astype(X.dtype), params[d].item()
