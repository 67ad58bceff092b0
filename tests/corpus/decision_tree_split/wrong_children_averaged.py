# kata: decision-tree-split
# why: vectorised prefix counts, but the two children's impurities are averaged, not weighted by their sizes
# mistake: unweighted_children
import numpy as np


def _imp(counts, criterion):
    p = counts / counts.sum(-1, keepdims=True)
    if criterion == "gini":
        return 1 - np.einsum("...k,...k->...", p, p)
    safe = np.where(p > 0, p, 1.0)
    return -np.einsum("...k,...k->...", p, np.log2(safe))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    cls, code = np.unique(y, return_inverse=True)
    if cls.size < 2:
        return None
    Y = np.eye(cls.size)[code]
    root = _imp(Y.sum(0), criterion)
    found = None
    for f in range(X.shape[1]) if feature is None else [feature]:
        idx = np.argsort(X[:, f])
        v = X[idx, f]
        L = np.cumsum(Y[idx], 0)[:-1]
        R = Y.sum(0) - L
        gain = root - (_imp(L, criterion) + _imp(R, criterion)) / 2
        ok = np.nonzero(np.diff(v) > 0)[0]
        if len(ok) == 0:
            continue
        i = ok[np.argmax(gain[ok])]
        if found is None or gain[i] > found[2]:
            found = (f, 0.5 * (v[i] + v[i + 1]), gain[i])
    return found
