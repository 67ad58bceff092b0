# kata: decision-tree-split
# why: every distinct value, the largest included, is tried as x <= t, and an empty side counts impurity 0: a
# constant feature yields a split with gain 0 instead of None
# mistake: largest_value_candidate
import numpy as np


def impurity(labels, criterion):
    if labels.size == 0:
        return 0.0
    p = np.unique(labels, return_counts=True)[1] / labels.size
    return 1 - np.sum(p ** 2) if criterion == "gini" else -np.sum(p * np.log2(p))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    if np.unique(y).size < 2:
        return None
    n = y.size
    parent = impurity(y, criterion)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        for t in np.unique(X[:, j]):
            left = X[:, j] <= t
            gain = parent - left.sum() / n * impurity(y[left], criterion) - (n - left.sum()) / n * impurity(y[~left], criterion)
            if best is None or gain > best[2]:
                best = (j, float(t), float(gain))
    return best
