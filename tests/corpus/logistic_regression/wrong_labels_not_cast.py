# kata: logistic-regression
# why: uses y as given: -y raises TypeError on bool labels, and int labels turn a float32 run into float64
# mistake: labels_not_cast
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    n, d = X.shape
    w = np.zeros(d, dtype=X.dtype)
    b = 0.0
    losses = []
    for _ in range(n_iters):
        z = X @ w + b
        losses.append(np.mean(np.logaddexp(0, z) + (-y) * z) + l2 / 2 * w @ w)
        r = np.exp(-np.logaddexp(0, -z)) - y
        w = w - lr * (X.T @ r / n + l2 * w)
        b = b - lr * r.mean()
    return w, float(b), np.array(losses)
