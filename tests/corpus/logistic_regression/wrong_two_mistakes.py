# kata: logistic-regression
# why: sums instead of averaging and penalises the bias too: two mistakes at once
# mistake: none
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    y = y.astype(X.dtype)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.zeros(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        losses[t] = np.sum(np.logaddexp(0, z) - y * z) + l2 / 2 * (w @ w + b * b)
        r = np.exp(-np.logaddexp(0, -z)) - y
        w, b = w - lr * (X.T @ r + l2 * w), b - lr * (r.sum() + l2 * b)
    return w, float(b), losses
