# kata: decision-tree-split
# why: class counts by np.bincount on the raw labels: negative labels raise ValueError, so only 0 … K-1 work
# mistake: labels_assumed_0_to_k
import numpy as np


def gini(counts):
    p = counts / counts.sum()
    return 1 - np.sum(p ** 2)


def entropy(counts):
    p = counts[counts > 0] / counts.sum()
    return -np.sum(p * np.log2(p))


def best_split(X, y, criterion="gini", feature=None):
    funcs = {"gini": gini, "entropy": entropy}
    if criterion not in funcs:
        raise ValueError(criterion)
    f = funcs[criterion]
    if len(np.unique(y)) < 2:
        return None
    K = y.max() + 1
    total = np.bincount(y, minlength=K)
    n = len(y)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        o = np.argsort(X[:, j])
        xs, ys = X[o, j], y[o]
        for i in range(n - 1):
            if xs[i] == xs[i + 1]:
                continue
            left = np.bincount(ys[:i + 1], minlength=K)
            gain = f(total) - (i + 1) / n * f(left) - (n - i - 1) / n * f(total - left)
            if best is None or gain > best[2]:
                best = (j, (xs[i] + xs[i + 1]) / 2, gain)
    return best
