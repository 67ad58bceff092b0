# kata: roc-auc
# why: walks the samples one by one in descending score order, a ROC point per sample: tied scores are not one threshold, so their order decides
# mistake: thresholds_not_merged
import numpy as np


def auc(y, s):
    order = np.argsort(-s, kind="stable")
    y = y[order].astype(bool)
    P, N = y.sum(), (~y).sum()
    if P == 0 or N == 0:
        raise ValueError("one class only")
    tpr = np.concatenate([[0], np.cumsum(y) / P])
    fpr = np.concatenate([[0], np.cumsum(~y) / N])
    return np.trapezoid(tpr, fpr)


def roc_auc(y_true, y_score, groups=None):
    y, s = np.asarray(y_true), np.asarray(y_score)
    if groups is None:
        return float(auc(y, s))
    g = np.asarray(groups)
    parts = []
    for k in np.unique(g):
        m = g == k
        if 0 < y[m].sum() < m.sum():
            parts.append((m.sum(), auc(y[m], s[m])))
    if not parts:
        raise ValueError("no group holds both classes")
    n = np.array([p[0] for p in parts])
    a = np.array([p[1] for p in parts])
    return float((n * a).sum() / n.sum())
