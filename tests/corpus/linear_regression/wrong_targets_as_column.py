# kata: linear-regression
# why: y.reshape(-1, 1) as in many tutorials, so the weights come back as a [D, 1] column
# mistake: y_as_column
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    y = y.reshape(-1, 1)
    m, d = X.shape
    if method == "closed_form":
        xm = X.mean(axis=0, keepdims=True)
        ym = y.mean()
        W = np.linalg.solve((X - xm).T @ (X - xm) + m * l2 * np.eye(d), (X - xm).T @ (y - ym))
        return W.astype(X.dtype), float(ym - (xm @ W)[0, 0])
    if method == "gd":
        W = np.zeros((d, 1), dtype=X.dtype)
        b = 0.0
        for _ in range(n_iters):
            R = X @ W + b - y
            W, b = W - lr * (X.T @ R / m + l2 * W), b - lr * R.mean()
        return W, float(b)
    raise ValueError(method)
