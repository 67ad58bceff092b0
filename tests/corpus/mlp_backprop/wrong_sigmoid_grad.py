# kata: mlp-backprop
# why: the backward through the ReLU multiplies by h * (1 - h), the sigmoid's derivative
# mistake: sigmoid_derivative
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    z = h @ W2 + b2
    m = z.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(z - m).sum(axis=1))
    loss = float((lse - z[np.arange(N), y]).mean())
    dz = np.exp(z - lse[:, None])
    dz[np.arange(N), y] -= 1
    dz /= N
    dh = dz @ W2.T
    da = dh * h * (1 - h)
    return loss, X.T @ da, da.sum(axis=0), h.T @ dz, dz.sum(axis=0)
