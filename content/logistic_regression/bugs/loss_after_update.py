# kata: logistic-regression
import numpy as np


def bce_loss(X, y, w, b, l2):
    z = X @ w + b
    return np.mean(np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * (w @ w)


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    y = y.astype(X.dtype)
    n = len(y)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    b = 0.0
    losses = np.zeros(n_iters, dtype=X.dtype)
    for i in range(n_iters):
        p = 0.5 * (1.0 + np.tanh(0.5 * (X @ w + b)))  # sigmoid via tanh, no overflow
        dw = X.T @ (p - y) / n + l2 * w
        db = np.mean(p - y)
        w, b = w - lr * dw, b - lr * db
        losses[i] = bce_loss(X, y, w, b, l2)
    return w, float(b), losses
