# kata: logistic-regression
# why: the gradient is a mean, but losses[t] records the summed data term (np.sum instead of np.mean)
# mistake: sum_not_mean
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.empty(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        losses[t] = np.sum(np.logaddexp(0, z) - y * z) + 0.5 * l2 * (w @ w)
        r = np.exp(-np.logaddexp(0, -z)) - y
        w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
    return w, float(b), losses
