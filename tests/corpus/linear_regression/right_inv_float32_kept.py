# kata: linear-regression
# why: right: [1, X] design (bias first) with np.linalg.inv and a zero penalty on the bias, everything in X's dtype
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    m, n = X.shape
    Xb = np.concatenate([np.ones((m, 1), dtype=X.dtype), X], axis=1)
    if method == "closed_form":
        P = np.eye(n + 1, dtype=X.dtype) * (m * l2)
        P[0, 0] = 0
        theta = np.linalg.inv(Xb.T @ Xb + P) @ Xb.T @ y
    elif method == "gd":
        theta = np.zeros(n + 1, dtype=X.dtype)
        reg = np.r_[0, np.full(n, l2)].astype(X.dtype)
        for _ in range(n_iters):
            theta = theta - lr * (Xb.T @ (Xb @ theta - y) / m + reg * theta)
    else:
        raise ValueError(method)
    return theta[1:], float(theta[0])
