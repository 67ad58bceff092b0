# kata: logistic-regression
# why: clips p to [1e-15, 1 - 1e-15] like sklearn's log_loss: no NaN, but a point lost by a margin of 1e7 costs only 34.5
# mistake: clipped_log
import numpy as np

EPS = 1e-15


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w, b = np.zeros(D, dtype=X.dtype), 0.0
    losses = np.zeros(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        p = np.where(z >= 0, 1 / (1 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1 + np.exp(-np.abs(z))))
        q = np.clip(p, EPS, 1 - EPS)
        losses[t] = -np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)) + 0.5 * l2 * np.sum(w ** 2)
        g = p - y
        w, b = w - lr * (X.T @ g / N + l2 * w), b - lr * g.mean()
    return w, float(b), losses
