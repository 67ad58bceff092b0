# kata: decision-tree-split
import numpy as np


def impurity_of_counts(counts, criterion):
    p = counts / counts.sum()
    if criterion == "gini":
        return 1 - (p ** 2).sum()
    p = p[p > 0]
    return -(p * np.log2(p)).sum()


def best_split(X, y, criterion="gini", feature=None):
    if criterion != "gini" and criterion != "entropy":
        raise ValueError(criterion)
    classes, y_idx = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        return None
    n_samples, n_features = X.shape
    total = np.bincount(y_idx, minlength=len(classes))
    parent = impurity_of_counts(total, criterion)
    candidates = [feature] if feature else list(range(n_features))
    best = None
    for f in candidates:
        values = np.unique(X[:, f])
        for k in range(len(values) - 1):
            mask = X[:, f] <= values[k]
            left = np.bincount(y_idx[mask], minlength=len(classes))
            right = total - left
            w = left.sum() / n_samples
            gain = parent - w * impurity_of_counts(left, criterion) - right.sum() / n_samples * impurity_of_counts(right, criterion)
            if best is None or gain > best[2]:
                best = (f, (values[k] + values[k + 1]) / 2, gain)
    return best
