# kata: linear-regression
# why: weight decay applied to every parameter in GD, the bias included (closed form right)
# mistake: bias_penalised
import numpy as np


def _fit_gd(X, y, l2, lr, n_iters):
    N = len(y)
    params = {"w": np.zeros(X.shape[1], dtype=X.dtype), "b": np.asarray(0.0, dtype=X.dtype)}
    for _ in range(n_iters):
        err = X @ params["w"] + params["b"] - y
        grads = {"w": X.T @ err / N, "b": err.mean()}
        params = {k: v - lr * (grads[k] + l2 * v) for k, v in params.items()}
    return params["w"], float(params["b"])


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    if method == "gd":
        return _fit_gd(X, y, l2, lr, n_iters)
    if method != "closed_form":
        raise ValueError(method)
    N, D = X.shape
    xm, ym = X.mean(axis=0), y.mean()
    w = np.linalg.solve((X - xm).T @ (X - xm) + N * l2 * np.eye(D), (X - xm).T @ (y - ym))
    return w.astype(X.dtype), float(ym - xm @ w)
