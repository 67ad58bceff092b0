# kata: mlp-backprop
# why: dW2 uses the pre-activation a (the value before the ReLU) instead of h
# mistake: dW2_from_pre_activation
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    z = h @ W2 + b2
    z = z - z.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=1))
    loss = np.mean(lse - z[np.arange(N), y])
    dz = np.exp(z - lse[:, None])
    dz[np.arange(N), y] -= 1
    dz /= N
    dW2 = a.T @ dz
    db2 = dz.sum(axis=0)
    da = (dz @ W2.T) * (a > 0)
    return loss, X.T @ da, da.sum(axis=0), dW2, db2
