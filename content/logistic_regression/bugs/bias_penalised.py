# kata: logistic-regression
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N = X.shape[0]
    Xb = np.hstack([X, np.ones((N, 1), dtype=X.dtype)])  # last column carries the intercept
    y = y.astype(X.dtype)
    theta = np.zeros(Xb.shape[1], dtype=X.dtype)
    losses = np.empty(n_iters, dtype=X.dtype)
    for step in range(n_iters):
        z = Xb @ theta
        losses[step] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * np.sum(theta ** 2)
        p = np.exp(-np.logaddexp(0, -z))
        grad = Xb.T @ (p - y) / N + l2 * theta
        theta -= lr * grad
    return theta[:-1], float(theta[-1]), losses
