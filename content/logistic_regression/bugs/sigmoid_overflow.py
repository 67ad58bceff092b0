# kata: logistic-regression
import numpy as np


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    n, d = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(d, dtype=X.dtype)
    b = 0.0
    losses = np.zeros(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        p = sigmoid(X @ w + b)
        # binary cross-entropy plus the L2 term on the weights
        bce = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
        losses[t] = bce + 0.5 * l2 * np.dot(w, w)
        grad_w = X.T @ (p - y) / n + l2 * w
        grad_b = np.mean(p - y)
        w = w - lr * grad_w
        b = b - lr * grad_b
    return w, float(b), losses
