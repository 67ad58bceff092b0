# kata: linear-regression
# why: ridge by lstsq on the centred rows stacked with sqrt(l2) * I (Ridge's alpha = l2)
# mistake: penalty_not_scaled_by_n
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    n, p = X.shape
    if method == "closed_form":
        mx, my = X.mean(axis=0), y.mean()
        big = np.concatenate([X - mx, np.sqrt(l2) * np.eye(p)], axis=0)
        tgt = np.concatenate([y - my, np.zeros(p)])
        beta, *_ = np.linalg.lstsq(big, tgt, rcond=None)
        return beta.astype(X.dtype), float(my - mx @ beta)
    elif method == "gd":
        beta, c = np.zeros(p, dtype=X.dtype), 0.0
        for _ in range(n_iters):
            res = X @ beta + c - y
            beta, c = beta - lr * (res @ X / n + l2 * beta), c - lr * res.mean()
        return beta, float(c)
    raise ValueError("method")
