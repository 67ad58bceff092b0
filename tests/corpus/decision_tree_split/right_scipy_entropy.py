# kata: decision-tree-split
# why: scipy.stats.entropy with base=2 for the entropy, np.unique counts, a threshold loop over sorted distinct values
import numpy as np
from scipy.stats import entropy


def impurity(labels, criterion):
    _, counts = np.unique(labels, return_counts=True)
    if criterion == "gini":
        p = counts / counts.sum()
        return 1.0 - np.dot(p, p)
    return entropy(counts, base=2)


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(f"bad criterion {criterion}")
    if len(set(y.tolist())) == 1:
        return None
    N = len(y)
    base = impurity(y, criterion)
    best_feature = best_threshold = None
    best_gain = -np.inf
    for j in ([feature] if feature is not None else range(X.shape[1])):
        col = X[:, j]
        distinct = np.unique(col)
        for a, b in zip(distinct[:-1], distinct[1:]):
            t = (a + b) / 2
            mask = col <= t
            nl = np.count_nonzero(mask)
            g = base - nl / N * impurity(y[mask], criterion) - (N - nl) / N * impurity(y[~mask], criterion)
            if g > best_gain:
                best_feature, best_threshold, best_gain = j, t, g
    if best_feature is None:
        return None
    return best_feature, best_threshold, best_gain
