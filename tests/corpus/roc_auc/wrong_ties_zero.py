# kata: roc-auc
# why: counts only s_pos > s_neg: a tied pair gets nothing, so all-equal scores give 0 instead of 0.5
# mistake: ties_zero
import numpy as np


def auc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    if len(pos) == 0 or len(neg) == 0:
        raise ValueError("single class")
    return float(np.mean(pos[:, None] > neg[None, :]))


def roc_auc(y_true, y_score, groups=None):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    if groups is None:
        return auc(y_true, y_score)
    groups = np.asarray(groups)
    num = den = 0.0
    for g in np.unique(groups):
        m = groups == g
        if 0 < y_true[m].sum() < m.sum():
            num += m.sum() * auc(y_true[m], y_score[m])
            den += m.sum()
    if den == 0:
        raise ValueError("no valid group")
    return num / den
