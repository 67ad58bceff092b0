# kata: linear-regression
# why: the closed form copies scikit-learn's Ridge(alpha=l2): X_c^T X_c + l2 I (GD is right)
# mistake: penalty_not_scaled_by_n
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        xbar, ybar = X.mean(0), y.mean()
        Xc = X - xbar
        w = np.linalg.solve(Xc.T @ Xc + l2 * np.eye(D), Xc.T @ (y - ybar))
        return w.astype(X.dtype), float(ybar - xbar @ w)
    if method == "gd":
        w, b = np.zeros(D, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            r = X @ w + b - y
            w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
        return w, float(b)
    raise ValueError(method)
