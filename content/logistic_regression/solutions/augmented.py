# kata: logistic-regression
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    n = X.shape[0]
    Xa = np.hstack([X, np.ones((n, 1), dtype=X.dtype)])
    y = y.astype(X.dtype)
    theta = np.zeros(Xa.shape[1], dtype=X.dtype)
    reg = np.ones_like(theta)
    reg[-1] = 0  # no penalty on the intercept
    losses = np.empty(n_iters, dtype=X.dtype)
    for it in range(n_iters):
        z = Xa @ theta
        softplus = np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))
        losses[it] = np.mean(softplus - y * z) + l2 / 2 * np.sum(reg * theta ** 2)
        p = np.exp(-np.logaddexp(0, -z))
        grad = Xa.T @ (p - y) / n + l2 * reg * theta
        theta = theta - lr * grad
    return theta[:-1], theta[-1], losses
