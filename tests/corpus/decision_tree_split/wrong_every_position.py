# kata: decision-tree-split
# why: (value, label) pairs sorted, and every position between two neighbours tried as a split, equal values too:
# a cut through a run of equal values reports a gain no threshold can make
# mistake: split_between_equal_values
import math
from collections import Counter


def h(counter, n, criterion):
    if criterion == "gini":
        return 1.0 - sum((v / n) ** 2 for v in counter.values())
    return -sum(v / n * math.log2(v / n) for v in counter.values() if v)


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    ys = [int(v) for v in y]
    n = len(ys)
    full = Counter(ys)
    if len(full) == 1:
        return None
    root = h(full, n, criterion)
    best = None
    for j in range(X.shape[1]) if feature is None else [feature]:
        pairs = sorted(zip(X[:, j].tolist(), ys))
        left, right = Counter(), Counter(full)
        for i in range(n - 1):
            left[pairs[i][1]] += 1
            right[pairs[i][1]] -= 1
            gain = root - (i + 1) / n * h(left, i + 1, criterion) - (n - i - 1) / n * h(right, n - i - 1, criterion)
            if best is None or gain > best[2]:
                best = (j, (pairs[i][0] + pairs[i + 1][0]) / 2, gain)
    return best
