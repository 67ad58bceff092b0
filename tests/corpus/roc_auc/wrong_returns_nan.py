# kata: roc-auc
# why: divides by n_pos * n_neg without checking: one class only gives 0/0 = NaN instead of a ValueError
# mistake: no_error_on_one_class
import numpy as np


def auc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    credit = (pos[:, None] > neg).sum() + 0.5 * (pos[:, None] == neg).sum()
    return credit / np.float64(len(pos) * len(neg))


def roc_auc(y_true, y_score, groups=None):
    y, s = np.asarray(y_true), np.asarray(y_score)
    if groups is None:
        return float(auc(y, s))
    groups = np.asarray(groups)
    weighted, total = 0.0, 0.0
    for g in np.unique(groups):
        m = groups == g
        if y[m].min() != y[m].max():
            weighted += m.sum() * auc(y[m], s[m])
            total += m.sum()
    return float(weighted / np.float64(total))
