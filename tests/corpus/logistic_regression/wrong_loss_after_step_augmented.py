# kata: logistic-regression
# why: steps theta = [w, b] first and records the loss of the updated parameters
# mistake: loss_after_update
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    Xb = np.concatenate([X, np.ones((N, 1), X.dtype)], axis=1)
    th = np.zeros(D + 1, X.dtype)
    reg = np.ones(D + 1, X.dtype)
    reg[-1] = 0
    L = np.empty(n_iters, X.dtype)
    for t in range(n_iters):
        z = Xb @ th
        r = np.exp(-np.logaddexp(0, -z)) - y
        th = th - lr * (Xb.T @ r / N + l2 * reg * th)
        z = Xb @ th
        L[t] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * np.sum((reg * th) ** 2)
    return th[:-1], float(th[-1]), L
