# kata: linear-regression
# why: GD uses the derivative of the plain MSE, 2/N * X^T (Xw + b - y), not of half of it
# mistake: gradient_without_half
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method not in {"closed_form", "gd"}:
        raise ValueError("method")
    if method == "closed_form":
        Xm = X - X.mean(axis=0)
        w = np.linalg.lstsq(Xm.T @ Xm + N * l2 * np.eye(D), Xm.T @ (y - y.mean()), rcond=None)[0]
        return w.astype(X.dtype), float(y.mean() - X.mean(axis=0) @ w)
    weights = np.zeros(D, dtype=X.dtype)
    bias = 0
    for _ in range(n_iters):
        y_pred = np.dot(X, weights) + bias
        dw = (2 / N) * np.dot(X.T, (y_pred - y)) + l2 * weights
        db = (2 / N) * np.sum(y_pred - y)
        weights = weights - lr * dw
        bias = bias - lr * db
    return weights, float(bias)
