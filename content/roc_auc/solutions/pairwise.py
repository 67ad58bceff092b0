# kata: roc-auc
import numpy as np


def _auc(y, s):
    pos = s[y == 1]
    neg = s[y == 0]
    if pos.size == 0 or neg.size == 0:
        raise ValueError("AUC is undefined with a single class")
    wins = (pos[:, None] > neg[None, :]).sum()
    ties = (pos[:, None] == neg[None, :]).sum()
    return (wins + 0.5 * ties) / (pos.size * neg.size)


def roc_auc(y_true, y_score, groups=None):
    y = np.asarray(y_true).astype(int)
    s = np.asarray(y_score)
    if groups is None:
        return float(_auc(y, s))
    groups = np.asarray(groups)
    num = den = 0.0
    for g in np.unique(groups):
        idx = groups == g
        yg = y[idx]
        if yg.min() == yg.max():
            continue
        num += idx.sum() * _auc(yg, s[idx])
        den += idx.sum()
    if den == 0:
        raise ValueError("no group has both classes")
    return num / den
