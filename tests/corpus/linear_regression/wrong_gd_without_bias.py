# kata: linear-regression
# why: gradient descent only on the weights; the bias is never learnt (the closed form is right)
# mistake: no_intercept
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        mu = X.mean(axis=0)
        w = np.linalg.lstsq((X - mu).T @ (X - mu) + N * l2 * np.eye(D), (X - mu).T @ (y - y.mean()), rcond=None)[0]
        return w.astype(X.dtype), float(y.mean() - mu @ w)
    if method == "gd":
        w = np.zeros(D, dtype=X.dtype)
        for _ in range(n_iters):
            w = w - lr * (X.T @ (X @ w - y) / N + l2 * w)
        return w, 0.0
    raise ValueError(method)
