# kata: mlp-backprop
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N, K = X.shape[0], W2.shape[1]
    Y = np.eye(K)[y]  # one-hot targets, [N, K]

    a = X @ W1 + b1
    h = np.maximum(a, 0)
    logits = h @ W2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -np.sum(Y * log_probs) / N

    dlogits = (np.exp(log_probs) - Y) / N
    dW2 = h.T @ dlogits
    db2 = dlogits.sum(axis=0)
    da = (dlogits @ W2.T) * (a > 0)
    dW1 = X.T @ da
    db1 = da.sum(axis=0)
    return loss, dW1, db1, dW2, db2
