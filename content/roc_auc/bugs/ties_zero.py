# kata: roc-auc
import numpy as np


def _auc(y, s):
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    n_pos = y.sum()
    n_neg = len(y) - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("roc_auc needs both classes in y_true")
    # one ROC point per distinct threshold
    last = np.r_[np.flatnonzero(np.diff(s)), len(s) - 1]
    tpr = np.r_[0, np.cumsum(y)[last]] / n_pos
    fpr = np.r_[0, np.cumsum(1 - y)[last]] / n_neg
    return float(np.sum(np.diff(fpr) * tpr[:-1]))


def roc_auc(y_true, y_score, groups=None):
    y = np.asarray(y_true).astype(np.int64)
    s = np.asarray(y_score)
    if groups is None:
        return _auc(y, s)
    groups = np.asarray(groups)
    num = den = 0.0
    for g in np.unique(groups):
        m = groups == g
        if 0 < y[m].sum() < m.sum():
            num += m.sum() * _auc(y[m], s[m])
            den += m.sum()
    if den == 0:
        raise ValueError("no group has both positives and negatives")
    return num / den
