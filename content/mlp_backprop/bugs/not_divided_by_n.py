# kata: mlp-backprop
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]

    # forward
    a = X @ W1 + b1
    h = np.maximum(a, 0)
    scores = h @ W2 + b2
    scores = scores - scores.max(axis=1, keepdims=True)
    sum_exp = np.exp(scores).sum(axis=1)
    loss = np.mean(np.log(sum_exp) - scores[np.arange(N), y])

    # backward
    dscores = np.exp(scores) / sum_exp[:, None]
    dscores[np.arange(N), y] -= 1
    dW2 = h.T @ dscores
    db2 = dscores.sum(axis=0)
    dh = dscores @ W2.T
    da = dh * (a > 0)
    dW1 = X.T @ da
    db1 = da.sum(axis=0)
    return loss, dW1, db1, dW2, db2
