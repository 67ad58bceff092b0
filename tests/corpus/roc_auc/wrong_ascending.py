# kata: roc-auc
# why: sorts ascending and counts the positives seen before each negative: a positive below a negative counts as right (1 - AUC)
# mistake: ascending
import numpy as np


def auc(y, s):
    y = y.astype(bool)
    pos, neg = s[y], s[~y]
    if pos.size == 0 or neg.size == 0:
        raise ValueError("one class")
    lower = np.searchsorted(np.sort(pos), neg, side="left")   # positives strictly below each negative
    equal = np.searchsorted(np.sort(pos), neg, side="right") - lower
    return float((lower.sum() + 0.5 * equal.sum()) / (pos.size * neg.size))


def roc_auc(y_true, y_score, groups=None):
    y, s = np.asarray(y_true), np.asarray(y_score)
    if groups is None:
        return auc(y, s)
    groups = np.asarray(groups)
    num = den = 0.0
    for g in np.unique(groups):
        m = groups == g
        if 0 < y[m].sum() < m.sum():
            num += m.sum() * auc(y[m], s[m])
            den += m.sum()
    if den == 0:
        raise ValueError("no group")
    return num / den
