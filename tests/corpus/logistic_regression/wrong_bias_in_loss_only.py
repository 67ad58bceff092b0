# kata: logistic-regression
# why: the recorded loss adds (l2/2) * b**2, while the update leaves the bias unpenalised
# mistake: bias_penalised
import numpy as np


def _softplus(z):
    return np.logaddexp(0, z)


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    t = y.astype(X.dtype)
    w, b = np.zeros(D, X.dtype), X.dtype.type(0)
    out = []
    for _ in range(n_iters):
        z = X.dot(w) + b
        out.append(_softplus(z).mean() - (t * z).mean() + l2 / 2 * (w.dot(w) + b * b))
        s = np.exp(-_softplus(-z))
        w, b = w - lr * (X.T.dot(s - t) / N + l2 * w), b - lr * (s - t).mean()
    return w, float(b), np.array(out, dtype=X.dtype)
