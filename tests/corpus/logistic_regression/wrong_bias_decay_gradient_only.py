# kata: logistic-regression
# why: the loss penalises w only, but the bias's gradient gets weight decay too (grad_b + l2 * b)
# mistake: bias_penalised
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    n, d = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(d, dtype=X.dtype)
    b = X.dtype.type(0.0)
    hist = np.zeros(n_iters, dtype=X.dtype)
    for it in range(n_iters):
        logits = X @ w + b
        hist[it] = np.mean(np.logaddexp(0.0, logits) - y * logits) + 0.5 * l2 * np.dot(w, w)
        err = np.exp(-np.logaddexp(0.0, -logits)) - y
        gw = X.T @ err / n + l2 * w
        gb = err.mean() + l2 * b
        w = w - lr * gw
        b = b - lr * gb
    return w, float(b), hist
