# kata: logistic-regression
# why: folds the bias into theta = [w, b] and penalises all of theta, bias included
# mistake: bias_penalised
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    n = X.shape[0]
    A = np.hstack([X, np.ones((n, 1), dtype=X.dtype)])
    y = y.astype(X.dtype)
    theta = np.zeros(A.shape[1], dtype=X.dtype)
    losses = np.empty(n_iters, dtype=X.dtype)
    for i in range(n_iters):
        z = A @ theta
        losses[i] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * theta @ theta
        p = np.exp(-np.logaddexp(0, -z))
        theta = theta - lr * (A.T @ (p - y) / n + l2 * theta)
    return theta[:-1], float(theta[-1]), losses
