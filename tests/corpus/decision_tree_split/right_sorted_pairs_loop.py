# kata: decision-tree-split
# why: plain loops over (value, label) pairs sorted by value only, counts kept in dicts moved from right to left,
# the gain as parent - weighted children with the weights summed first, ties kept by a strict > over features
import math


def _imp(counts, size, criterion):
    if criterion == "gini":
        return 1 - sum((c / size) ** 2 for c in counts.values())
    total = 0.0
    for c in counts.values():
        if c > 0:
            q = c / size
            total -= q * math.log(q, 2)
    return total


def best_split(X, y, criterion="gini", feature=None):
    if criterion != "gini" and criterion != "entropy":
        raise ValueError("criterion")
    n = len(y)
    labels = [int(v) for v in y]
    whole = {}
    for lab in labels:
        whole[lab] = whole.get(lab, 0) + 1
    if len(whole) < 2:
        return None
    root = _imp(whole, n, criterion)
    best = None
    feats = list(range(len(X[0]))) if feature is None else [int(feature)]
    for f in feats:
        pairs = sorted(((float(X[r][f]), labels[r]) for r in range(n)), key=lambda p: p[0])
        left = {lab: 0 for lab in whole}
        right = dict(whole)
        for i in range(n - 1):
            v, lab = pairs[i]
            left[lab] += 1
            right[lab] -= 1
            nxt = pairs[i + 1][0]
            if v == nxt:
                continue
            weighted = ((i + 1) * _imp(left, i + 1, criterion) + (n - i - 1) * _imp(right, n - i - 1, criterion)) / n
            gain = root - weighted
            if best is None or gain > best[2]:
                best = (f, (v + nxt) / 2, gain)
    return best
