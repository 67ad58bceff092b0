# kata: roc-auc
# why: gives a group with one class only an AUC of 0.5 (a coin flip) instead of skipping it
# mistake: gauc_single_class_half
import numpy as np


def auc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    if len(pos) == 0 or len(neg) == 0:
        raise ValueError("AUC needs both classes")
    return ((pos[:, None] > neg).sum() + 0.5 * (pos[:, None] == neg).sum()) / (len(pos) * len(neg))


def roc_auc(y_true, y_score, groups=None):
    y = np.asarray(y_true).astype(int)
    s = np.asarray(y_score)
    if groups is None:
        return float(auc(y, s))
    groups = np.asarray(groups)
    num = den = 0.0
    valid = False
    for g in np.unique(groups):
        m = groups == g
        if 0 < y[m].sum() < m.sum():
            a = auc(y[m], s[m])
            valid = True
        else:
            a = 0.5
        num += m.sum() * a
        den += m.sum()
    if not valid:
        raise ValueError("no group with both classes")
    return float(num / den)
