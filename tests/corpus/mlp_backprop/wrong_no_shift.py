# kata: mlp-backprop
# why: softmax as exp(z) / sum(exp(z)) with no max shift: logits of 1e4 overflow to inf and the loss and gradients become NaN
# mistake: no_max_shift
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = len(X)
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    logits = h @ W2 + b2
    exps = np.exp(logits)
    probs = exps / exps.sum(axis=1, keepdims=True)
    loss = np.mean(np.log(exps.sum(axis=1)) - logits[np.arange(N), y])
    d = probs
    d[np.arange(N), y] -= 1
    d /= N
    dh = d @ W2.T
    da = dh * (a > 0)
    return loss, X.T @ da, da.sum(0), h.T @ d, d.sum(0)
