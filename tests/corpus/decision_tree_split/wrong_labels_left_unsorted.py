# kata: decision-tree-split
# why: the column is sorted with np.sort, but the running class counts walk the labels in their original order
# mistake: prefix_counts_unsorted
from collections import Counter

import numpy as np


def imp(cnt, m, criterion):
    ps = np.array([v / m for v in cnt.values() if v > 0])
    return 1 - np.sum(ps ** 2) if criterion == "gini" else -np.sum(ps * np.log2(ps))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    total = Counter(y.tolist())
    if len(total) < 2:
        return None
    n = len(y)
    root = imp(total, n, criterion)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        xs = np.sort(X[:, j])
        left, right = Counter(), Counter(total)
        for i in range(n - 1):
            left[y[i]] += 1
            right[y[i]] -= 1
            if xs[i] < xs[i + 1]:
                g = root - (i + 1) / n * imp(left, i + 1, criterion) - (n - i - 1) / n * imp(right, n - i - 1, criterion)
                if best is None or g > best[2]:
                    best = (j, (xs[i] + xs[i + 1]) / 2, g)
    return best
