# kata: linear-regression
# why: fits y ≈ X w through the origin in both methods and returns b = 0.0
# mistake: no_intercept
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    n, d = X.shape
    if method == "closed_form":
        w = np.linalg.solve(X.T @ X + n * l2 * np.eye(d), X.T @ y)
    elif method == "gd":
        w = np.zeros(d)
        for _ in range(n_iters):
            w -= lr * (X.T @ (X @ w - y) / n + l2 * w)
    else:
        raise ValueError(f"bad method {method}")
    return w.astype(X.dtype), 0.0
