# kata: logistic-regression
# why: adds the penalty's gradient inside the data mean ((X.T @ r + l2 * w) / N), the loss keeps (l2/2)||w||^2
# mistake: l2_over_n
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.empty(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        losses[t] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * (w @ w)
        r = np.exp(-np.logaddexp(0, -z)) - y
        w = w - lr * (X.T @ r + l2 * w) / N
        b = b - lr * np.sum(r) / N
    return w, float(b), losses
