# kata: linear-regression
# why: error = y - y_hat, then w -= lr * gradient as if the error were y_hat - y
# mistake: residual_sign_flipped
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    if method == "closed_form":
        N, D = X.shape
        Xc, yc = X - X.mean(axis=0), y - y.mean()
        w = np.linalg.solve(Xc.T @ Xc + N * l2 * np.eye(D), Xc.T @ yc)
        return w.astype(X.dtype), float(y.mean() - X.mean(axis=0) @ w)
    if method == "gd":
        N, D = X.shape
        w, b = np.zeros(D, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            error = y - (X @ w + b)
            w, b = w - lr * (X.T @ error / N + l2 * w), b - lr * error.mean()
        return w, float(b)
    raise ValueError(method)
