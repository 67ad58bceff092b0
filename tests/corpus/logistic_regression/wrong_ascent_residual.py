# kata: logistic-regression
# why: the residual is written y - p but the update still subtracts it: the steps climb the loss
# mistake: gradient_ascent
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    t = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.empty(n_iters, dtype=X.dtype)
    for i in range(n_iters):
        z = X @ w + b
        losses[i] = np.mean(np.logaddexp(0, z) - t * z) + l2 / 2 * (w @ w)
        resid = t - np.exp(-np.logaddexp(0, -z))
        w, b = w - lr * (X.T @ resid / N - l2 * w), b - lr * np.mean(resid)
    return w, float(b), losses
