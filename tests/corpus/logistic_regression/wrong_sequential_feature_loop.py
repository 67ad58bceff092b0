# kata: logistic-regression
# why: updates w in a loop over the features, then recomputes the residual with the new w for the bias
# mistake: sequential_update
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    y = y.astype(X.dtype)
    w = np.zeros(D, dtype=X.dtype)
    b = X.dtype.type(0)
    losses = np.empty(n_iters, dtype=X.dtype)
    for t in range(n_iters):
        z = X @ w + b
        losses[t] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * (w @ w)
        r = np.exp(-np.logaddexp(0, -z)) - y
        new_w = w.copy()
        for j in range(D):
            new_w[j] = w[j] - lr * (np.dot(X[:, j], r) / N + l2 * w[j])
        w = new_w
        r = np.exp(-np.logaddexp(0, -(X @ w + b))) - y
        b = b - lr * np.mean(r)
    return w, float(b), losses
