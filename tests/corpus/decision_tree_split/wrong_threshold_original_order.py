# kata: decision-tree-split
# why: the split is scored on the sorted samples, but the threshold is averaged from X[i, j] and X[i + 1, j], the
# neighbours in the original (unsorted) order, so it usually names another partition
# mistake: threshold_from_unsorted
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    labels = np.unique(y)
    if labels.size < 2:
        return None

    def impurity(v):
        q = np.array([np.mean(v == c) for c in labels])
        return 1 - q @ q if criterion == "gini" else -sum(a * np.log2(a) for a in q if a > 0)

    n = len(y)
    root = impurity(y)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        order = X[:, j].argsort()
        sx, sy = X[order, j], y[order]
        for i in range(n - 1):
            if sx[i] == sx[i + 1]:
                continue
            gain = root - (i + 1) / n * impurity(sy[:i + 1]) - (n - i - 1) / n * impurity(sy[i + 1:])
            if best is None or gain > best[2]:
                best = (j, (X[i, j] + X[i + 1, j]) / 2, gain)
    return best
