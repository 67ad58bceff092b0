# kata: logistic-regression
# why: the loss as -[y log p + (1 - y) log(1 - p)] on a plain sigmoid: once |z| > 37, p rounds to exactly 0 or 1 and log(0) gives inf/NaN
# mistake: sigmoid_overflow
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    n, d = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(d, dtype=X.dtype)
    b = 0.0
    losses = []
    for _ in range(n_iters):
        p = 1 / (1 + np.exp(-(X @ w + b)))
        losses.append(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)) + l2 / 2 * w @ w)
        w, b = w - lr * (X.T @ (p - y) / n + l2 * w), b - lr * np.mean(p - y)
    return w, float(b), np.array(losses, dtype=X.dtype)
