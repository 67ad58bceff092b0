# kata: roc-auc
# why: the definition with two plain Python loops over positives and negatives (O(N^2), fine for N <= 2000)
import numpy as np


def auc_of(labels, scores):
    pos = [s for l, s in zip(labels, scores) if l]
    neg = [s for l, s in zip(labels, scores) if not l]
    if not pos or not neg:
        raise ValueError("both classes are needed")
    credit = 0.0
    for p in pos:
        for n in neg:
            if p > n:
                credit += 1.0
            elif p == n:
                credit += 0.5
    return credit / (len(pos) * len(neg))


def roc_auc(y_true, y_score, groups=None):
    labels = [bool(v) for v in y_true]
    scores = np.asarray(y_score).tolist()
    if groups is None:
        return auc_of(labels, scores)
    buckets = {}
    for g, l, s in zip(np.asarray(groups).tolist(), labels, scores):
        buckets.setdefault(g, ([], []))
        buckets[g][0].append(l)
        buckets[g][1].append(s)
    num = den = 0.0
    for ls, ss in buckets.values():
        if all(ls) or not any(ls):
            continue
        num += len(ls) * auc_of(ls, ss)
        den += len(ls)
    if den == 0:
        raise ValueError("no group holds both classes")
    return num / den
