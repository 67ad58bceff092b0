"""Binary logistic regression trained by full-batch gradient descent, in NumPy.

The model p_i = σ(x_i·w + b) is fitted by minimising the mean cross-entropy on the logits plus an L2
penalty on the weights only (Bishop, "Pattern Recognition and Machine Learning", 2006, §4.3.2, eq. 4.90–4.91;
the objective of scikit-learn's `SGDClassifier(loss="log_loss", penalty="l2", alpha=l2)` and of
`torch.optim.SGD(weight_decay=l2)` on w with `BCEWithLogitsLoss`):

    J(w, b) = mean_i [log(1 + e^{z_i}) − y_i·z_i] + (l2/2)·‖w‖²,   z = X·w + b
    ∇w J = Xᵀ(σ(z) − y)/N + l2·w,   ∂b J = mean(σ(z) − y)

log(1 + e^z) is computed as logaddexp(0, z) and σ(z) as exp(−logaddexp(0, −z)): exact for any logit, so a
point misclassified by a margin of 1e7 costs 1e7 (not inf from log(0), not 34.5 from a clipped p).
"""
import numpy as np


def logistic_regression(X, y, lr=0.1, n_iters=100, l2=0.0):
    """X [N, D] float32/float64, y [N] 0/1 (int, float or bool). Returns (w [D], b float, losses [n_iters])."""
    assert X.ndim == 2 and X.shape[0] >= 1 and X.shape[1] >= 1, f"X must be [N, D], got shape {X.shape}"
    assert y.shape == (X.shape[0],), f"y must be [N] = [{X.shape[0]}], got shape {y.shape}"
    N, D = X.shape
    dtype = X.dtype
    y = y.astype(dtype)  # bool/int labels: keep the arithmetic in X's dtype
    w = np.zeros(D, dtype=dtype)  # [D]
    b = dtype.type(0)
    losses = np.empty(n_iters, dtype=dtype)  # [n_iters]
    for t in range(n_iters):
        z = X @ w + b  # [N] logits
        losses[t] = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * (w @ w)  # J before this step's update
        r = np.exp(-np.logaddexp(0, -z)) - y  # [N] σ(z) − y
        grad_w = X.T @ r / N + l2 * w  # [D]
        grad_b = np.mean(r)
        w, b = w - lr * grad_w, b - lr * grad_b  # simultaneous: both gradients at the old (w, b)
    return w, float(b), losses
