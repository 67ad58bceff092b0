# kata: decision-tree-split
# why: right answers, but `xs = X[:, j]` is a view and `xs.sort()` sorts the caller's X column by column
# mistake: column_sorted_in_place
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    classes, codes = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        return None
    n, K = len(y), len(classes)

    def impurity(c):
        p = c / c.sum()
        if criterion == "gini":
            return 1 - np.sum(p * p)
        p = p[p > 0]
        return -np.sum(p * np.log2(p))

    total = np.bincount(codes, minlength=K)
    parent = impurity(total)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        order = np.argsort(X[:, j], kind="stable")
        ys = codes[order]
        xs = X[:, j]
        xs.sort()
        left = np.zeros(K, dtype=int)
        for i in range(n - 1):
            left[ys[i]] += 1
            if xs[i] == xs[i + 1]:
                continue
            right = total - left
            gain = parent - (i + 1) / n * impurity(left) - (n - i - 1) / n * impurity(right)
            if best is None or gain > best[2]:
                best = (j, (xs[i] + xs[i + 1]) / 2, gain)
    return best
