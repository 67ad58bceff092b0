# kata: decision-tree-split
# why: every feature at once (argsort along axis 0), midpoints computed in X's dtype (np.float32 thresholds for
# float32 X), the winner taken by one argmax over a [D, N-1] gain matrix (feature-major: the lowest feature, then
# the lowest split), so the feature comes back as a NumPy integer
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError("criterion should be gini or entropy")
    labels, inv = np.unique(y, return_inverse=True)
    if labels.size < 2:
        return None
    n = X.shape[0]
    cols = np.arange(X.shape[1]) if feature is None else np.array([feature])
    Xs = X[:, cols]
    order = np.argsort(Xs, axis=0, kind="stable")
    xs = np.take_along_axis(Xs, order, axis=0)                 # (n, d)
    onehot = np.eye(labels.size)[inv]                           # (n, k)
    left = np.cumsum(onehot[order], axis=0)[:-1]                # (n-1, d, k)
    right = onehot.sum(0) - left
    nl = np.arange(1, n)[:, None]

    def imp(c, m):
        p = c / m[..., None]
        if criterion == "gini":
            return 1 - (p ** 2).sum(-1)
        return -(p * np.log2(np.where(p > 0, p, 1))).sum(-1)

    tot = onehot.sum(0)
    parent = imp(tot[None], np.array([n]))[0]
    gains = parent - nl / n * imp(left, np.broadcast_to(nl, left.shape[:2])) \
        - (n - nl) / n * imp(right, np.broadcast_to(n - nl, right.shape[:2]))
    gains = np.where(xs[1:] > xs[:-1], gains, -np.inf).T       # (d, n-1)
    flat = np.argmax(gains)
    f, i = divmod(flat, n - 1)
    if not np.isfinite(gains[f, i]):
        return None
    return cols[f], (xs[i, f] + xs[i + 1, f]) / 2, gains[f, i]
