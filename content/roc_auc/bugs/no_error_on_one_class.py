# kata: roc-auc
import numpy as np


def pairwise_auc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    wins = np.sum(pos[:, None] > neg[None, :]) + 0.5 * np.sum(pos[:, None] == neg[None, :])
    return wins / (pos.size * neg.size)


def roc_auc(y_true, y_score, groups=None):
    y = np.asarray(y_true, dtype=np.float64)
    s = np.asarray(y_score)
    if groups is None:
        return float(pairwise_auc(y, s))
    g = np.asarray(groups)
    weighted, impressions = 0.0, 0
    for key in np.unique(g):
        idx = np.flatnonzero(g == key)
        if np.all(y[idx] == y[idx[0]]):
            continue
        weighted += len(idx) * pairwise_auc(y[idx], s[idx])
        impressions += len(idx)
    return float(weighted / np.float64(impressions))
