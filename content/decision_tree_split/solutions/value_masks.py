# kata: decision-tree-split
import numpy as np


def impurity(labels, criterion):
    _, counts = np.unique(labels, return_counts=True)
    p = counts / len(labels)
    if criterion == "gini":
        return 1.0 - np.sum(p ** 2)
    return -np.sum(p * np.log2(p))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(f"unknown criterion: {criterion}")
    if len(np.unique(y)) < 2:
        return None
    n = len(y)
    parent = impurity(y, criterion)
    features = range(X.shape[1]) if feature is None else [feature]
    best = None
    for j in features:
        column = X[:, j]
        for t in np.unique(column)[:-1]:
            left = column <= t
            n_left = left.sum()
            gain = (parent - n_left / n * impurity(y[left], criterion)
                    - (n - n_left) / n * impurity(y[~left], criterion))
            if best is None or gain > best[2]:
                best = (j, float(t), float(gain))
    return best
