# kata: logistic-regression
# why: clips p to [1e-7, 1 - 1e-7] (Keras' epsilon) before the log: a point lost by a wide margin costs at most 16
# mistake: clipped_log
import numpy as np

EPS = 1e-7


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.empty(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        p = np.exp(-np.logaddexp(0, -z))
        pc = np.clip(p, EPS, 1 - EPS)
        losses[t] = -np.mean(y * np.log(pc) + (1 - y) * np.log(1 - pc)) + l2 / 2 * (w @ w)
        w, b = w - lr * (X.T @ (p - y) / N + l2 * w), b - lr * np.mean(p - y)
    return w, float(b), losses
