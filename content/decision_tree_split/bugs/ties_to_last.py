# kata: decision-tree-split
from collections import Counter

import numpy as np


def _impurity(counter, size, criterion):
    probs = np.array([c / size for c in counter.values() if c > 0])
    if criterion == "gini":
        return 1.0 - float(np.sum(probs ** 2))
    return -float(np.sum(probs * np.log2(probs)))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in {"gini", "entropy"}:
        raise ValueError("unknown criterion")
    n = len(y)
    everything = Counter(y.tolist())
    if len(everything) == 1:
        return None
    root = _impurity(everything, n, criterion)
    result, top = None, -np.inf
    columns = range(X.shape[1]) if feature is None else [feature]
    for j in columns:
        order = np.argsort(X[:, j], kind="stable")
        xs, ys = X[order, j], y[order]
        left, right = Counter(), Counter(everything)
        for i in range(n - 1):
            left[ys[i]] += 1
            right[ys[i]] -= 1
            if xs[i] == xs[i + 1]:
                continue
            k = i + 1
            gain = root - k / n * _impurity(left, k, criterion) - (n - k) / n * _impurity(right, n - k, criterion)
            if gain >= top:
                top = gain
                result = (j, float(xs[i] + xs[i + 1]) / 2, gain)
    return result
