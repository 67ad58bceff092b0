# kata: decision-tree-split
# why: a while loop over sorted positions that keeps a split when its gain is >= the best so far: exact ties go to
# the last feature and the highest threshold
# mistake: ties_to_last
import numpy as np


def impurity(y, criterion):
    if len(y) == 0:
        return 0.0
    p = np.unique(y, return_counts=True)[1] / len(y)
    return 1 - (p * p).sum() if criterion == "gini" else -(p * np.log2(p)).sum()


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    if np.all(y == y[0]):
        return None
    n, d = X.shape
    parent = impurity(y, criterion)
    best_gain, answer = -1.0, None
    for j in range(d):
        if feature is not None and j != feature:
            continue
        perm = X[:, j].argsort()
        xs, ys = X[perm, j], y[perm]
        i = 0
        while i < n - 1:
            if xs[i] != xs[i + 1]:
                g = parent - (i + 1) / n * impurity(ys[:i + 1], criterion) - (n - i - 1) / n * impurity(ys[i + 1:], criterion)
                if g >= best_gain:
                    best_gain, answer = g, (j, (xs[i] + xs[i + 1]) / 2.0, g)
            i += 1
    return answer
