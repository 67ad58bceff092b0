# kata: logistic-regression
import math

import numpy as np


def softplus(z):
    # log(1 + e^z) without overflow
    return z + math.log1p(math.exp(-z)) if z > 0 else math.log1p(math.exp(z))


def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    N, D = X.shape
    w = [0.0] * D
    b = 0.0
    losses = []
    for _ in range(n_iters):
        gw = [0.0] * D
        gb = 0.0
        total = 0.0
        for i in range(N):
            z = b + sum(float(X[i, j]) * w[j] for j in range(D))
            yi = float(y[i])
            total += softplus(z) - yi * z
            r = sigmoid(z) - yi
            for j in range(D):
                gw[j] += r * float(X[i, j])
            gb += r
        losses.append(total / N + l2 / 2 * sum(wj * wj for wj in w))
        w = [w[j] - lr * (gw[j] / N + l2 * w[j]) for j in range(D)]
        b = b - lr * gb / N
    return np.array(w, dtype=X.dtype), b, np.array(losses, dtype=X.dtype)
