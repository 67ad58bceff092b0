# kata: roc-auc
from collections import defaultdict

import numpy as np


def average_ranks(x):
    order = np.argsort(x, kind="mergesort")
    xs = x[order]
    ranks = np.empty(len(x))
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1  # 1-based average rank of the tie block
        i = j + 1
    return ranks


def auc(labels, scores):
    labels = np.asarray(labels).astype(bool)
    n_pos = int(labels.sum())
    n_neg = len(labels) - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("need both positive and negative samples")
    r = average_ranks(np.asarray(scores))
    u = r[labels].sum() - n_pos * (n_pos + 1) / 2
    return u / (n_pos * n_neg)


def roc_auc(y_true, y_score, groups=None):
    if groups is None:
        return auc(y_true, y_score)
    members = defaultdict(list)
    for i, g in enumerate(groups):
        members[g].append(i)
    total, weight = 0.0, 0
    for idx in members.values():
        ys = np.asarray(y_true)[idx].astype(bool)
        if ys.all() or not ys.any():
            continue
        total += len(idx) * auc(ys, np.asarray(y_score)[idx])
        weight += len(idx)
    if weight == 0:
        raise ValueError("every group has a single class")
    return total / weight
