# kata: decision-tree-split
import numpy as np


def node_impurity(labels, criterion):
    _, counts = np.unique(labels, return_counts=True)
    p = counts / counts.sum()
    if criterion == "gini":
        return 1.0 - np.sum(p * p)
    return float(-np.sum(p * np.log2(p)))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(f"criterion must be 'gini' or 'entropy', got {criterion!r}")
    n, d = X.shape
    if np.unique(y).size < 2:
        return None
    parent = node_impurity(y, criterion)
    best, best_gain = None, 0.0
    for j in range(d) if feature is None else [feature]:
        values = np.unique(X[:, j])
        for lo, hi in zip(values[:-1], values[1:]):
            goes_left = X[:, j] <= lo
            n_left = int(goes_left.sum())
            children = (n_left * node_impurity(y[goes_left], criterion)
                        + (n - n_left) * node_impurity(y[~goes_left], criterion)) / n
            gain = parent - children
            if gain > best_gain:
                best, best_gain = (j, float((lo + hi) / 2), float(gain)), gain
    return best
