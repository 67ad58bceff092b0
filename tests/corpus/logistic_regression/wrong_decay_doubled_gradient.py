# kata: logistic-regression
# why: the loss has (l2/2)||w||^2 but the gradient uses 2 * l2 * w, the derivative of l2 * ||w||^2
# mistake: l2_not_halved
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N = X.shape[0]
    y = y.astype(X.dtype)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.empty(n_iters, dtype=X.dtype)
    for k in range(n_iters):
        z = X @ w + b
        losses[k] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * np.sum(w ** 2)
        p = np.exp(-np.logaddexp(0, -z))
        grad_w = X.T @ (p - y) / N + 2 * l2 * w
        grad_b = np.mean(p - y)
        w, b = w - lr * grad_w, b - lr * grad_b
    return w, float(b), losses
