# kata: logistic-regression
# why: updates w first and then takes the bias gradient with the new w (a Gauss-Seidel step, not the contract's simultaneous one)
# mistake: sequential_update
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    m = X.shape[0]
    y = y.astype(X.dtype)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    b = 0.0
    losses = np.zeros(n_iters, dtype=X.dtype)
    sig = lambda v: np.exp(-np.logaddexp(0, -v))
    for k in range(n_iters):
        z = X @ w + b
        losses[k] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * (w @ w)
        w = w - lr * (X.T @ (sig(z) - y) / m + l2 * w)
        b = b - lr * np.mean(sig(X @ w + b) - y)
    return w, float(b), losses
