# kata: linear-regression
# why: right: the closed form by the SVD of the centred data (shrinkage s / (s^2 + N l2)); GD with einsum
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    X64, y64 = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    N, D = X64.shape
    if method == "closed_form":
        mu, nu = X64.mean(0), y64.mean()
        U, s, Vt = np.linalg.svd(X64 - mu, full_matrices=False)
        keep = s ** 2 + N * l2 > 0
        shrink = np.zeros_like(s)
        shrink[keep] = s[keep] / (s[keep] ** 2 + N * l2)
        w = Vt.T @ (shrink * (U.T @ (y64 - nu)))
        b = nu - mu @ w
    elif method == "gd":
        w, b = np.zeros(D), 0.0
        for _ in range(n_iters):
            e = np.einsum("nd,d->n", X64, w) + b - y64
            gw = np.einsum("nd,n->d", X64, e) / N + l2 * w
            gb = e.mean()
            w, b = w - lr * gw, b - lr * gb
    else:
        raise ValueError("method")
    return w.astype(X.dtype), float(b)
