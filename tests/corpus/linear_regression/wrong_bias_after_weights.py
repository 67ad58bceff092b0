# kata: linear-regression
# why: updates w, then recomputes the predictions with the new w to get the bias's gradient
# mistake: sequential_update
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "gd":
        w = np.zeros(D, dtype=X.dtype)
        b = 0.0
        for _ in range(n_iters):
            w -= lr * (X.T @ (X @ w + b - y) / N + l2 * w)
            b -= lr * np.mean(X @ w + b - y)
        return w, float(b)
    if method == "closed_form":
        mx, my = X.mean(0), y.mean()
        K = (X - mx).T @ (X - mx) + N * l2 * np.eye(D)
        w = np.linalg.solve(K, (X - mx).T @ (y - my))
        return w.astype(X.dtype), float(my - mx @ w)
    raise ValueError(method)
