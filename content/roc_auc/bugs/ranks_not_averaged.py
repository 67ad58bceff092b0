# kata: roc-auc
import numpy as np


def mann_whitney_auc(y, s):
    n1 = int(y.sum())
    n0 = len(y) - n1
    if n1 == 0 or n0 == 0:
        raise ValueError("both classes are required")
    ranks = np.empty(len(s))
    ranks[np.argsort(s)] = np.arange(1, len(s) + 1)
    u = ranks[y == 1].sum() - n1 * (n1 + 1) / 2
    return u / (n1 * n0)


def roc_auc(y_true, y_score, groups=None):
    y = np.asarray(y_true).astype(int)
    s = np.asarray(y_score)
    if groups is None:
        return float(mann_whitney_auc(y, s))
    groups = np.asarray(groups)
    total, weight = 0.0, 0
    for g in np.unique(groups):
        m = groups == g
        if 0 < y[m].sum() < m.sum():
            total += m.sum() * mann_whitney_auc(y[m], s[m])
            weight += m.sum()
    if weight == 0:
        raise ValueError("no group contains both classes")
    return float(total / weight)
