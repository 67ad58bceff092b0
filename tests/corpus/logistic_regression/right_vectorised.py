# kata: logistic-regression
# why: the textbook vectorised loop; loss with logaddexp, a sigmoid split by sign so exp never overflows
import numpy as np


def sigmoid(z):
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    ez = np.exp(z[~pos])
    out[~pos] = ez / (1.0 + ez)
    return out


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    n, d = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(d, dtype=X.dtype)
    b = 0.0
    losses = np.zeros(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        losses[t] = np.mean(np.logaddexp(0, z) - y * z) + 0.5 * l2 * np.dot(w, w)
        err = sigmoid(z) - y
        dw = X.T @ err / n + l2 * w
        db = err.mean()
        w = w - lr * dw
        b = b - lr * db
    return w, float(b), losses
