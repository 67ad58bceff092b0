# kata: decision-tree-split
# why: no check for a pure node: with one class every split gains 0 and the first one is returned instead of None
# mistake: pure_node_split
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    _, k = np.unique(y, return_inverse=True)
    K = k.max() + 1
    n = len(y)

    def imp(counts):
        p = counts / counts.sum()
        if criterion == "gini":
            return 1.0 - p @ p
        nz = p[p > 0]
        return float(-(nz * np.log2(nz)).sum())

    total = np.bincount(k, minlength=K)
    h0 = imp(total)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        col = X[:, j]
        uniq = np.unique(col)
        for lo, hi in zip(uniq[:-1], uniq[1:]):
            m = col <= lo
            cl = np.bincount(k[m], minlength=K)
            cr = total - cl
            gain = h0 - cl.sum() / n * imp(cl) - cr.sum() / n * imp(cr)
            if best is None or gain > best[2]:
                best = (j, (lo + hi) / 2, gain)
    return best
