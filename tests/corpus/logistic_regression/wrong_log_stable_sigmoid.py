# kata: logistic-regression
# why: a numerically stable sigmoid (np.where on the sign of z), but the loss is still -mean(y log p + (1 - y) log(1 - p)): log(0) once p rounds to 1
# mistake: sigmoid_overflow
import numpy as np


def _sigmoid(z):
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1 / (1 + e), e / (1 + e))


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.empty(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        p = _sigmoid(z)
        with np.errstate(divide="ignore", invalid="ignore"):
            losses[t] = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)) + l2 / 2 * (w @ w)
        w, b = w - lr * (X.T @ (p - y) / N + l2 * w), b - lr * np.mean(p - y)
    return w, float(b), losses
