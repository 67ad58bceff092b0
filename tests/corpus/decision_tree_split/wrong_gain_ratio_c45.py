# kata: decision-tree-split
# why: C4.5's gain ratio: each gain divided by the split information of the two children, chosen and returned
# mistake: gain_ratio
import numpy as np


def _entropy_of(p):
    p = p[p > 0]
    return -np.sum(p * np.log2(p))


def _impurity(y, criterion):
    p = np.unique(y, return_counts=True)[1] / y.size
    return 1.0 - np.sum(p * p) if criterion == "gini" else _entropy_of(p)


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    if np.unique(y).size < 2:
        return None
    n = y.size
    base = _impurity(y, criterion)
    top = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        x = X[:, j]
        u = np.unique(x)
        for a, b in zip(u[:-1], u[1:]):
            m = x <= a
            w = m.mean()
            info_gain = base - w * _impurity(y[m], criterion) - (1 - w) * _impurity(y[~m], criterion)
            ratio = info_gain / _entropy_of(np.array([w, 1 - w]))
            if top is None or ratio > top[2]:
                top = (j, (a + b) / 2, ratio)
    return top
