# kata: linear-regression
# why: subtracts the mean from y with -= before solving, changing the caller's y
# mistake: input_centred_in_place
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        x_bar = X.mean(axis=0)
        y_bar = y.mean()
        y -= y_bar
        Xc = X - x_bar
        w = np.linalg.solve(Xc.T @ Xc + N * l2 * np.eye(D), Xc.T @ y)
        return w.astype(X.dtype), float(y_bar - x_bar @ w)
    if method == "gd":
        w, b = np.zeros(D, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            r = X @ w + b - y
            w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
        return w, float(b)
    raise ValueError(method)
