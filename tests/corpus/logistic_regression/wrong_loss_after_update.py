# kata: logistic-regression
# why: records the loss after the step (train, then log), so losses[t] is J at the next parameters
# mistake: loss_after_update
import numpy as np


def objective(X, y, w, b, l2):
    z = X @ w + b
    return np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * np.dot(w, w)


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    y = y.astype(X.dtype)
    n = len(y)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    b = 0.0
    losses = []
    for _ in range(n_iters):
        p = np.exp(-np.logaddexp(0, -(X @ w + b)))
        grad_w = X.T @ (p - y) / n + l2 * w
        grad_b = np.mean(p - y)
        w = w - lr * grad_w
        b = b - lr * grad_b
        losses.append(objective(X, y, w, b, l2))
    return w, float(b), np.array(losses, dtype=X.dtype)
