# kata: decision-tree-split
# why: the signature takes feature, but the scan never reads it: every feature is searched always
# mistake: feature_ignored
import numpy as np


def node_gini(y):
    _, c = np.unique(y, return_counts=True)
    return 1 - ((c / len(y)) ** 2).sum()


def node_entropy(y):
    _, c = np.unique(y, return_counts=True)
    p = c / len(y)
    return -(p * np.log2(p)).sum()


def best_split(X, y, criterion="gini", feature=None):
    if criterion == "gini":
        measure = node_gini
    elif criterion == "entropy":
        measure = node_entropy
    else:
        raise ValueError(criterion)
    if len(np.unique(y)) == 1:
        return None
    n, d = X.shape
    before = measure(y)
    winner = None
    for col in range(d):
        values = np.sort(np.unique(X[:, col]))
        mids = (values[:-1] + values[1:]) / 2
        for t in mids:
            L = y[X[:, col] <= t]
            R = y[X[:, col] > t]
            g = before - len(L) / n * measure(L) - len(R) / n * measure(R)
            if winner is None or g > winner[2]:
                winner = (col, t, g)
    return winner
