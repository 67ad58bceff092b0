# kata: linear-regression
# why: GD with Python loops accumulates the gradient over the points and never divides by N
# mistake: gradient_not_averaged
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        c = X - X.mean(0)
        w = np.linalg.inv(c.T @ c + N * l2 * np.eye(D)) @ c.T @ (y - y.mean())
        return w.astype(X.dtype), float(y.mean() - X.mean(0) @ w)
    if method != "gd":
        raise ValueError(method)
    w = np.zeros(D)
    b = 0.0
    for _ in range(n_iters):
        gw = l2 * w
        gb = 0.0
        for i in range(N):
            err = X[i] @ w + b - y[i]
            gw = gw + err * X[i]
            gb += err
        w = w - lr * gw
        b = b - lr * gb
    return w.astype(X.dtype), float(b)
