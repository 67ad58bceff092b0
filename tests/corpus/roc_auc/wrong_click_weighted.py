# kata: roc-auc
# why: GAUC weights each user's AUC by their clicks (positives) instead of their impressions
# mistake: gauc_click_weighted
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
    for user in np.unique(groups):
        m = groups == user
        clicks = y[m].sum()
        if clicks == 0 or clicks == m.sum():
            continue
        num += clicks * auc(y[m], s[m])
        den += clicks
    if den == 0:
        raise ValueError("no user with both clicks and non-clicks")
    return float(num / den)
