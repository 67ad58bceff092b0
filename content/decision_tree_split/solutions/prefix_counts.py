# kata: decision-tree-split
import numpy as np


def _impurity(counts, criterion):
    p = counts / counts.sum(axis=-1, keepdims=True)
    if criterion == "gini":
        return 1.0 - (p ** 2).sum(axis=-1)
    logp = np.log2(np.where(p > 0, p, 1.0))
    return -(p * logp).sum(axis=-1)


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    classes, codes = np.unique(y, return_inverse=True)
    if len(classes) == 1:
        return None
    n = len(y)
    onehot = np.eye(len(classes))[codes]
    parent = _impurity(onehot.sum(axis=0), criterion)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        order = np.argsort(X[:, j])
        xs = X[order, j]
        left = np.cumsum(onehot[order], axis=0)[:-1]
        right = left[-1] + onehot[order[-1]] - left
        n_left = np.arange(1, n)
        gains = parent - (n_left * _impurity(left, criterion) + (n - n_left) * _impurity(right, criterion)) / n
        gains[xs[1:] == xs[:-1]] = -np.inf
        i = np.argmax(gains)
        if np.isfinite(gains[i]) and (best is None or gains[i] > best[2]):
            best = (j, (xs[i] + xs[i + 1]) / 2, gains[i])
    return best
