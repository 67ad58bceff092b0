# kata: logistic-regression
# why: sums the loss and the gradient over the points instead of averaging (no 1/N)
# mistake: sum_not_mean
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    y = y.astype(X.dtype)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    b = 0.0
    losses = np.zeros(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        losses[t] = np.sum(np.logaddexp(0, z) - y * z) + l2 / 2 * w @ w
        err = np.exp(-np.logaddexp(0, -z)) - y
        w, b = w - lr * (X.T @ err + l2 * w), b - lr * err.sum()
    return w, float(b), losses
