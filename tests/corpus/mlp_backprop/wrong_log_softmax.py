# kata: mlp-backprop
# why: the loss as -log(p[y]) of the shifted softmax: when the target's probability underflows to 0 the loss is inf
# mistake: log_of_softmax
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    z = h @ W2 + b2
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    loss = -np.log(p[np.arange(N), y]).mean()
    dz = p.copy()
    dz[np.arange(N), y] -= 1
    dz /= N
    da = (dz @ W2.T) * (a > 0)
    return loss, X.T @ da, da.sum(axis=0), h.T @ dz, dz.sum(axis=0)
