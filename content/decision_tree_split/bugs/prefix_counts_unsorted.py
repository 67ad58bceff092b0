# kata: decision-tree-split
import numpy as np


def impurity(counts, criterion):
    p = counts / counts.sum(axis=1, keepdims=True)
    if criterion == "gini":
        return 1.0 - (p ** 2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log2(p), 0.0)
    return -terms.sum(axis=1)


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(f"unknown criterion {criterion!r}")
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size == 1:
        return None
    n = y.shape[0]
    one_hot = (codes[:, None] == np.arange(classes.size)).astype(float)
    parent = impurity(one_hot.sum(axis=0, keepdims=True), criterion)[0]
    answer = None
    for j in range(X.shape[1]) if feature is None else (feature,):
        xs = np.sort(X[:, j])
        left = np.cumsum(one_hot, axis=0)[:-1]
        right = one_hot.sum(axis=0) - left
        sizes = np.arange(1, n)
        gains = parent - (sizes * impurity(left, criterion) + (n - sizes) * impurity(right, criterion)) / n
        valid = np.flatnonzero(xs[1:] > xs[:-1])
        if valid.size == 0:
            continue
        i = valid[np.argmax(gains[valid])]
        if answer is None or gains[i] > answer[2]:
            answer = (j, (xs[i] + xs[i + 1]) / 2, gains[i])
    return answer
