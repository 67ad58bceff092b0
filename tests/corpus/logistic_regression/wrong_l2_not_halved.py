# kata: logistic-regression
# why: penalty l2 * ||w||^2 with its gradient 2 * l2 * w: a different objective from the contract's (l2 / 2) * ||w||^2
# mistake: l2_not_halved
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = 0.0
    losses = np.zeros(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        losses[t] = np.mean(np.logaddexp(0.0, z) - y * z) + l2 * np.sum(w * w)
        r = 0.5 * (1 + np.tanh(z / 2)) - y
        w, b = w - lr * (X.T @ r / N + 2 * l2 * w), b - lr * np.mean(r)
    return w, b, losses
