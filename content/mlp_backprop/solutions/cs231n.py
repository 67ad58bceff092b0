# kata: mlp-backprop
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    N = X.shape[0]
    hidden = np.maximum(0, X.dot(W1) + b1)
    scores = hidden.dot(W2) + b2
    scores = scores - np.max(scores, axis=1, keepdims=True)
    exp_scores = np.exp(scores)
    sum_exp = np.sum(exp_scores, axis=1, keepdims=True)
    probs = exp_scores / sum_exp
    loss = np.mean(np.log(sum_exp[:, 0]) - scores[np.arange(N), y])

    dscores = probs
    dscores[np.arange(N), y] -= 1
    dscores /= N
    dW2 = hidden.T.dot(dscores)
    db2 = np.sum(dscores, axis=0)
    dhidden = dscores.dot(W2.T)
    dhidden[hidden <= 0] = 0
    dW1 = X.T.dot(dhidden)
    db1 = np.sum(dhidden, axis=0)
    return loss, dW1, db1, dW2, db2
