# kata: mlp-backprop
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    z1 = X.dot(W1) + b1
    a1 = np.maximum(z1, 0)
    z2 = a1.dot(W2) + b2

    m = z2.max(axis=1, keepdims=True)
    lse = m + np.log(np.exp(z2 - m).sum(axis=1, keepdims=True))
    loss = np.mean(lse[:, 0] - z2[np.arange(N), y])

    dz2 = np.exp(z2 - lse)
    dz2[np.arange(N), y] -= 1
    dz2 /= N
    dW2 = dz2.T.dot(a1)
    db2 = dz2.sum(axis=0)
    dz1 = dz2.dot(W2.T) * (z1 > 0)
    dW1 = dz1.T.dot(X)
    db1 = dz1.sum(axis=0)
    return loss, dW1, db1, dW2, db2
