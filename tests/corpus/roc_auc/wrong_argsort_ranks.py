# kata: roc-auc
# why: the rank-sum formula with ranks from argsort(argsort): tied scores get different ranks instead of their average
# mistake: ranks_not_averaged
import numpy as np


def auc(y, s):
    y = y.astype(bool)
    n1, n0 = y.sum(), (~y).sum()
    if n1 == 0 or n0 == 0:
        raise ValueError("y_true has a single class")
    ranks = np.argsort(np.argsort(s, kind="stable"), kind="stable") + 1
    return (ranks[y].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def roc_auc(y_true, y_score, groups=None):
    y, s = np.asarray(y_true), np.asarray(y_score)
    if groups is None:
        return float(auc(y, s))
    groups = np.asarray(groups)
    total = weight = 0
    for g in np.unique(groups):
        m = groups == g
        if y[m].all() or not y[m].any():
            continue
        total += m.sum() * auc(y[m], s[m])
        weight += m.sum()
    if weight == 0:
        raise ValueError("no group with both classes")
    return float(total / weight)
