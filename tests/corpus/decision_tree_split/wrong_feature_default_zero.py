# kata: decision-tree-split
# why: written for the one-feature form: feature None falls back to column 0 instead of searching every column
# mistake: only_feature_0
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    if len(set(y.tolist())) < 2:
        return None
    j = 0 if feature is None else feature
    x = X[:, j]
    idx = np.argsort(x)
    xs, ys = x[idx], y[idx]
    classes = np.unique(y)
    onehot = (ys[:, None] == classes).astype(float)
    cl = np.cumsum(onehot, axis=0)[:-1]
    cr = onehot.sum(0) - cl
    n = len(y)
    nl = np.arange(1, n)[:, None]

    def imp(c, m):
        p = c / m
        if criterion == "gini":
            return 1 - (p ** 2).sum(1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return -np.nansum(p * np.log2(p), axis=1)

    parent = imp(onehot.sum(0, keepdims=True), n)[0]
    gains = parent - (nl[:, 0] / n) * imp(cl, nl) - ((n - nl[:, 0]) / n) * imp(cr, n - nl)
    gains[xs[1:] == xs[:-1]] = -np.inf
    if not np.isfinite(gains).any():
        return None
    i = int(np.argmax(gains))
    return j, (xs[i] + xs[i + 1]) / 2, gains[i]
