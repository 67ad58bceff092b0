# kata: decision-tree-split
# why: the best is kept as a tuple that starts at gain 0 and a split must beat it: an XOR node, whose splits all
# gain 0, returns None
# mistake: zero_gain_is_none
import numpy as np


def _gini_or_entropy(y, criterion):
    _, c = np.unique(y, return_counts=True)
    p = c / c.sum()
    return 1 - np.sum(p ** 2) if criterion == "gini" else -np.sum(p * np.log2(p))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in {"gini", "entropy"}:
        raise ValueError(criterion)
    if np.unique(y).size == 1:
        return None
    n = y.size
    parent = _gini_or_entropy(y, criterion)
    best = (None, None, 0.0)
    for j in (range(X.shape[1]) if feature is None else (feature,)):
        vals = np.unique(X[:, j])
        for a, b in zip(vals, vals[1:]):
            left = X[:, j] <= a
            k = left.sum()
            gain = parent - k / n * _gini_or_entropy(y[left], criterion) - (n - k) / n * _gini_or_entropy(y[~left], criterion)
            if gain > best[2]:
                best = (j, (a + b) / 2, gain)
    return None if best[0] is None else best
