# kata: roc-auc
# why: ties counted 0 and GAUC as a plain mean over the groups: two mistakes at once
# mistake: none
import numpy as np


def _auc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    if len(pos) == 0 or len(neg) == 0:
        raise ValueError("one class")
    return ((pos[:, None] > neg).sum()) / (len(pos) * len(neg))


def roc_auc(y_true, y_score, groups=None):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    if groups is None:
        return float(_auc(y_true, y_score))
    groups = np.asarray(groups)
    aucs = []
    for g in np.unique(groups):
        m = groups == g
        if 0 < y_true[m].sum() < m.sum():
            aucs.append(_auc(y_true[m], y_score[m]))
    if not aucs:
        raise ValueError("no group")
    return float(np.mean(aucs))
