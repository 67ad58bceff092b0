# kata: mlp-backprop
# why: the bias gradients are the per-row upstream gradients, never summed over the batch (shape [N, H] and [N, K])
# mistake: bias_not_reduced
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    z = h @ W2 + b2
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    loss = np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(N), y])
    dz = p
    dz[np.arange(N), y] -= 1
    dz /= N
    da = (dz @ W2.T) * (a > 0)
    return loss, X.T @ da, da, h.T @ dz, dz
