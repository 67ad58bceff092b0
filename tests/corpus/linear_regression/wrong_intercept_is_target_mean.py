# kata: linear-regression
# why: centres both sides for w, then returns the target mean as the intercept (forgets - x_mean @ w)
# mistake: intercept_mean_y
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    if method == "closed_form":
        n_samples, n_features = X.shape
        X_offset = np.average(X, axis=0)
        y_offset = np.average(y)
        Xs, ys = X - X_offset, y - y_offset
        coef = np.linalg.solve(Xs.T @ Xs + n_samples * l2 * np.eye(n_features), Xs.T @ ys)
        return coef.astype(X.dtype), float(y_offset)
    elif method == "gd":
        n_samples = X.shape[0]
        coef, intercept = np.zeros(X.shape[1], X.dtype), 0.0
        for _ in range(n_iters):
            resid = X @ coef + intercept - y
            coef, intercept = coef - lr * (X.T @ resid / n_samples + l2 * coef), intercept - lr * resid.mean()
        return coef, float(intercept)
    raise ValueError(method)
