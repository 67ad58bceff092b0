# kata: decision-tree-split
# why: the <= loop's bounds np.unique(col)[:-1] kept with col < t: the first t leaves the left side empty (skipped)
# and the last split, the largest value alone on the right, is never tried
# mistake: last_split_missed
import numpy as np


def impurity(labels, criterion):
    _, counts = np.unique(labels, return_counts=True)
    p = counts / len(labels)
    if criterion == "gini":
        return 1 - np.sum(p ** 2)
    return -np.sum(p * np.log2(p))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    if len(np.unique(y)) < 2:
        return None
    n = len(y)
    parent = impurity(y, criterion)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        for t in np.unique(X[:, j])[:-1]:
            left = X[:, j] < t
            if not left.any():
                continue
            gain = parent - left.sum() / n * impurity(y[left], criterion) - (~left).sum() / n * impurity(y[~left], criterion)
            if best is None or gain > best[2]:
                best = (j, t, gain)
    return best
