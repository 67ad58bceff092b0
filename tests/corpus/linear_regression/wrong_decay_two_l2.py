# kata: linear-regression
# why: differentiates l2 * ||w||^2 in GD (2 * l2 * w) although the penalty is (l2 / 2) * ||w||^2 (closed form right)
# mistake: l2_gradient_doubled
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        mean_x, mean_y = X.mean(axis=0), y.mean()
        Xc = X - mean_x
        w = np.linalg.solve(Xc.T @ Xc + N * l2 * np.eye(D), Xc.T @ (y - mean_y))
        return w.astype(X.dtype), float(mean_y - mean_x @ w)
    if method == "gd":
        w = np.zeros(D, dtype=X.dtype)
        b = 0.0
        for _ in range(n_iters):
            diff = X @ w + b - y
            grad_w = X.T @ diff / N + 2 * l2 * w
            grad_b = diff.mean()
            w = w - lr * grad_w
            b = b - lr * grad_b
        return w, float(b)
    raise ValueError(method)
