# kata: decision-tree-split
# why: the criterion is an if/else: anything that is not "gini" is treated as entropy, so "mse" returns a split
# mistake: unknown_criterion_accepted
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    def impurity(labels):
        _, counts = np.unique(labels, return_counts=True)
        p = counts / counts.sum()
        if criterion == "gini":
            return 1 - np.sum(p ** 2)
        else:
            return -np.sum(p * np.log2(p))

    if len(np.unique(y)) == 1:
        return None
    n = len(y)
    parent = impurity(y)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        vals = np.unique(X[:, j])
        for i in range(len(vals) - 1):
            left = X[:, j] <= vals[i]
            gain = parent - left.mean() * impurity(y[left]) - (~left).mean() * impurity(y[~left])
            if best is None or gain > best[2]:
                best = (j, (vals[i] + vals[i + 1]) / 2, gain)
    return best
