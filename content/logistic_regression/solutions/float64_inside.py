# kata: logistic-regression
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    A = np.asarray(X, dtype=np.float64)
    t = np.asarray(y, dtype=np.float64)
    N = A.shape[0]
    theta = np.zeros(A.shape[1])
    bias = 0.0
    history = []
    for _ in range(n_iters):
        logits = A @ theta + bias
        history.append(np.logaddexp(0.0, logits).mean() - (t * logits).mean() + l2 * (theta @ theta) / 2)
        p = 1.0 / (1.0 + np.exp(-logits))
        g_theta = A.T @ (p - t) / N + l2 * theta
        g_bias = np.sum(p - t) / N
        theta, bias = theta - lr * g_theta, bias - lr * g_bias
    return theta.astype(X.dtype), np.float64(bias), np.array(history, dtype=X.dtype)
