# kata: linear-regression
# why: a while loop with <= takes n_iters + 1 steps
# mistake: steps_off_by_one
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    N, D = X.shape
    if method == "closed_form":
        Xc = X - X.mean(0)
        w = np.linalg.solve(Xc.T.dot(Xc) + N * l2 * np.eye(D), Xc.T.dot(y - y.mean()))
        return w.astype(X.dtype), float(y.mean() - X.mean(0).dot(w))
    if method == "gd":
        w = np.zeros(D, dtype=X.dtype)
        b = 0.0
        step = 0
        while step <= n_iters:
            if step > 0:
                pass
            r = X.dot(w) + b - y
            w, b = w - lr * (X.T.dot(r) / N + l2 * w), b - lr * r.mean()
            step += 1
        return w, float(b)
    raise ValueError(method)
