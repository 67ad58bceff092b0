# kata: linear-regression
# why: writes the gradient with (y - y_hat) and still subtracts it
# mistake: residual_sign_flipped
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        xm, ym = X.mean(0), y.mean()
        w = np.linalg.solve((X - xm).T @ (X - xm) + N * l2 * np.eye(D), (X - xm).T @ (y - ym))
        return w.astype(X.dtype), float(ym - xm @ w)
    if method == "gd":
        w, b = np.zeros(D, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            y_hat = X @ w + b
            dw = (1 / N) * X.T @ (y - y_hat) + l2 * w
            db = (1 / N) * np.sum(y - y_hat)
            w -= lr * dw
            b -= lr * db
        return w, float(b)
    raise ValueError(method)
