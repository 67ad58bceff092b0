# kata: roc-auc
import numpy as np


def roc_curve(y, s):
    order = np.argsort(-s, kind="stable")
    y, s = y[order], s[order]
    last = np.r_[np.nonzero(np.diff(s))[0], len(s) - 1]  # the last index of each distinct score
    tps = np.cumsum(y)[last]
    fps = (last + 1) - tps
    return np.r_[0, fps], np.r_[0, tps]


def auc_one(y, s):
    fps, tps = roc_curve(y, s)
    P, N = tps[-1], fps[-1]
    if P == 0 or N == 0:
        raise ValueError("only one class present in y_true")
    fpr, tpr = fps / N, tps / P
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def roc_auc(y_true, y_score, groups=None):
    y = np.asarray(y_true, dtype=np.int64)
    s = np.asarray(y_score)
    if groups is None:
        return auc_one(y, s)
    g = np.asarray(groups)
    sizes, aucs = [], []
    for gid in np.unique(g):
        m = g == gid
        if 0 < y[m].sum() < m.sum():
            sizes.append(m.sum())
            aucs.append(auc_one(y[m], s[m]))
    if not sizes:
        raise ValueError("no group with both classes")
    return float(np.average(aucs, weights=sizes))
