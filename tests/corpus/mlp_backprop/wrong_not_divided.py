# kata: mlp-backprop
# why: the loss is a mean but dscores is never divided by N: every gradient is N times too large
# mistake: not_divided_by_n
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    z = h @ W2 + b2
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    loss = -np.mean(z[np.arange(N), y] - np.log(np.exp(z).sum(axis=1)))
    dz = p.copy()
    dz[np.arange(N), y] -= 1
    dW2 = h.T @ dz
    db2 = dz.sum(axis=0)
    da = dz @ W2.T * (a > 0)
    return loss, X.T @ da, da.sum(axis=0), dW2, db2
