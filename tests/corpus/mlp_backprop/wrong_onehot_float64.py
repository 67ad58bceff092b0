# kata: mlp-backprop
# why: the one-hot comes from np.eye(K)[y], which is float64: with float32 inputs every gradient comes back float64
# mistake: float64_onehot
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N, K = X.shape[0], W2.shape[1]
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    z = h @ W2 + b2
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    Y = np.eye(K)[y]
    loss = -(Y * log_p).sum() / N
    dz = (np.exp(log_p) - Y) / N
    da = (dz @ W2.T) * (a > 0)
    return loss, X.T @ da, da.sum(0), h.T @ dz, dz.sum(0)
