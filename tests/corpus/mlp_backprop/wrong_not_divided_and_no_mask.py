# kata: mlp-backprop
# why: two mistakes at once: no division by N in the backward and no ReLU mask
# mistake: none
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    h = np.maximum(X @ W1 + b1, 0)
    z = h @ W2 + b2
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    loss = np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(N), y])
    dz = p
    dz[np.arange(N), y] -= 1
    dh = dz @ W2.T
    return loss, X.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)
