# kata: decision-tree-split
# why: the x < t form: thresholds scanned over the distinct values from the second one, each value v_{i+1} returned
# as the threshold (the smallest value going right), gini written from counts as 1 - sum(c^2)/n^2
import numpy as np


def gini(counts):
    n = counts.sum()
    return 1.0 - (counts ** 2).sum() / n ** 2


def entropy_bits(counts):
    n = counts.sum()
    c = counts[counts > 0]
    return np.log2(n) - (c * np.log2(c)).sum() / n


def best_split(X, y, criterion="gini", feature=None):
    measure = {"gini": gini, "entropy": entropy_bits}.get(criterion)
    if measure is None:
        raise ValueError(criterion)
    classes, codes = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        return None
    k = len(classes)
    total = np.bincount(codes, minlength=k).astype(float)
    n = total.sum()
    parent = measure(total)
    result = None
    for j in range(X.shape[1]):
        if feature is not None and j != feature:
            continue
        col = X[:, j]
        for t in np.unique(col)[1:]:
            goes_left = col < t
            left = np.bincount(codes[goes_left], minlength=k).astype(float)
            right = total - left
            gain = parent - left.sum() / n * measure(left) - right.sum() / n * measure(right)
            if result is None or gain > result[2]:
                result = (j, float(t), float(gain))
    return result
