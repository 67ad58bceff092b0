# kata: decision-tree-split
import math
from collections import Counter


def impurity(counts, n, criterion):
    if criterion == "gini":
        return 1.0 - sum((c / n) ** 2 for c in counts.values())
    return -sum(c / n * math.log2(c / n) for c in counts.values() if c)


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in {"gini", "entropy"}:
        raise ValueError("criterion must be 'gini' or 'entropy'")
    labels = [int(v) for v in y]
    n = len(labels)
    total = Counter(labels)
    if len(total) < 2:
        return None
    parent = impurity(total, n, criterion)
    best_feature, best_threshold, best_gain = None, None, -math.inf
    for j in range(X.shape[1]) if feature is None else [feature]:
        pairs = sorted(zip(X[:, j].tolist(), labels))
        left, right = Counter(), Counter(total)
        for i in range(n - 1):
            value, label = pairs[i]
            left[label] += 1
            right[label] -= 1
            if value == pairs[i + 1][0]:
                continue
            n_left = i + 1
            gain = (parent - n_left / n * impurity(left, n_left, criterion)
                    - (n - n_left) / n * impurity(right, n - n_left, criterion))
            if gain > best_gain:
                best_feature, best_threshold, best_gain = j, pairs[i + 1][0], gain
    if best_feature is None:
        return None
    return best_feature, best_threshold, best_gain
