# kata: mlp-backprop
import math
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    dt = X.dtype
    X, W1, b1, W2, b2 = (t.astype(np.float64) for t in (X, W1, b1, W2, b2))
    N = X.shape[0]
    gW1, gb1 = np.zeros_like(W1), np.zeros_like(b1)
    gW2, gb2 = np.zeros_like(W2), np.zeros_like(b2)
    total = 0.0
    for i in range(N):
        a = X[i] @ W1 + b1
        h = np.maximum(a, 0.0)
        z = h @ W2 + b2
        top = z.max()
        s = sum(math.exp(v - top) for v in z)
        total += top + math.log(s) - z[y[i]]
        dz = np.exp(z - top) / s
        dz[y[i]] -= 1.0
        gW2 += np.outer(h, dz)
        gb2 += dz
        da = (W2 @ dz) * (a > 0)
        gW1 += np.outer(X[i], da)
        gb1 += da
    return (total / N, (gW1 / N).astype(dt), (gb1 / N).astype(dt), (gW2 / N).astype(dt), (gb2 / N).astype(dt))
