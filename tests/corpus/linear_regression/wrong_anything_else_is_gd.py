# kata: linear-regression
# why: if method == "closed_form" ... else: gradient descent, so a misspelt method silently runs GD
# mistake: unknown_method_accepted
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        x_mu, y_mu = X.mean(axis=0), y.mean()
        w = np.linalg.solve((X - x_mu).T @ (X - x_mu) + N * l2 * np.eye(D), (X - x_mu).T @ (y - y_mu))
        return w.astype(X.dtype), float(y_mu - x_mu @ w)
    w, b = np.zeros(D, dtype=X.dtype), 0.0
    for _ in range(n_iters):
        r = X @ w + b - y
        w, b = w - lr * (X.T @ r / N + l2 * w), b - lr * r.mean()
    return w, float(b)
