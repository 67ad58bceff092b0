# kata: decision-tree-split
# why: Gini written as one minus the sum of the class shares (no square): every Gini is 0, so every split gains 0
# and the first candidate of the first feature wins
# mistake: gini_not_squared
from collections import Counter

import numpy as np


def score(labels, criterion):
    n = len(labels)
    shares = [c / n for c in Counter(labels.tolist()).values()]
    if criterion == "gini":
        return 1 - sum(shares)
    return -sum(s * np.log2(s) for s in shares)


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ["gini", "entropy"]:
        raise ValueError("criterion")
    if len(np.unique(y)) == 1:
        return None
    n = len(y)
    h = score(y, criterion)
    out, out_gain = None, -1.0
    for j in (range(X.shape[1]) if feature is None else [feature]):
        order = np.argsort(X[:, j])
        xs, ys = X[order, j], y[order]
        for i in range(1, n):
            if xs[i] == xs[i - 1]:
                continue
            g = h - i / n * score(ys[:i], criterion) - (n - i) / n * score(ys[i:], criterion)
            if g > out_gain:
                out, out_gain = (j, (xs[i - 1] + xs[i]) / 2, g), g
    return out
