# kata: logistic-regression
import numpy as np


def _sigmoid(z):
    # split by sign so that exp never sees a large positive argument
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1 / (1 + np.exp(-z[pos]))
    e = np.exp(z[~pos])
    out[~pos] = e / (1 + e)
    return out


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = 0.0
    history = []
    for _ in range(n_iters):
        z = X @ w + b
        history.append(np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * w @ w)
        w = w - lr * (X.T @ (_sigmoid(z) - y) / N + l2 * w)
        b = b - lr * np.mean(_sigmoid(X @ w + b) - y)
    return w, float(b), np.array(history, dtype=X.dtype)
