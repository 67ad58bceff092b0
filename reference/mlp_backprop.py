"""Forward and backward of a two-layer ReLU MLP with a softmax cross-entropy loss, by hand, in NumPy.

cs231n's layout (weights [in, out], `X @ W`; Karpathy et al., CS231n assignment 1, "two_layer_net"):
    a = X W1 + b1,  h = relu(a),  z = h W2 + b2,  loss = mean_i (logsumexp(z_i) - z_i[y_i])
Backward (the chain rule, Rumelhart, Hinton & Williams 1986):
    dz = (softmax(z) - onehot(y)) / N,  dW2 = hᵀ dz,  db2 = Σ_i dz,  dh = dz W2ᵀ,
    da = dh ⊙ [a > 0] (relu'(0) = 0, as torch),  dW1 = Xᵀ da,  db1 = Σ_i da.
The softmax and the logsumexp are shifted by each row's max, so logits of 1e4 neither overflow nor give NaN.
"""
import numpy as np


def mlp_forward_backward(X, y, W1, b1, W2, b2):
    """X (N, D), y (N,) int in [0, K), W1 (D, H), b1 (H,), W2 (H, K), b2 (K,). Returns
    (loss, dW1, db1, dW2, db2): the loss a float, each gradient with its parameter's shape and dtype."""
    N, D = X.shape
    H, K = W2.shape
    assert W1.shape == (D, H) and b1.shape == (H,) and b2.shape == (K,) and y.shape == (N,), "shapes disagree"
    a = X @ W1 + b1  # (N, H)
    h = np.maximum(a, 0)  # (N, H)
    z = h @ W2 + b2  # (N, K)
    shifted = z - z.max(axis=1, keepdims=True)  # (N, K), each row's max at 0
    log_sum = np.log(np.exp(shifted).sum(axis=1))  # (N,) logsumexp(z_i) - max_i
    rows = np.arange(N)
    loss = float(np.mean(log_sum - shifted[rows, y]))
    dz = np.exp(shifted - log_sum[:, None])  # (N, K) softmax(z)
    dz[rows, y] -= 1
    dz /= N
    dW2 = h.T @ dz  # (H, K)
    db2 = dz.sum(axis=0)  # (K,)
    da = (dz @ W2.T) * (a > 0)  # (N, H)
    dW1 = X.T @ da  # (D, H)
    db1 = da.sum(axis=0)  # (H,)
    return loss, dW1, db1, dW2, db2
