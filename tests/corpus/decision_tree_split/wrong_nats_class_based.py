# kata: decision-tree-split
# why: a small Node class whose entropy uses np.log: the gain comes back in nats, ln 2 ≈ 0.69 times the bits
# mistake: entropy_in_nats
import numpy as np


class Node:
    def __init__(self, labels):
        _, self.counts = np.unique(labels, return_counts=True)
        self.size = len(labels)

    def impurity(self, criterion):
        p = self.counts / self.size
        if criterion == "gini":
            return 1.0 - np.sum(np.square(p))
        return -np.sum(p * np.log(p))


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    root = Node(y)
    if len(root.counts) == 1:
        return None
    best = None
    scan = [feature] if feature is not None else range(X.shape[1])
    for j in scan:
        v = np.unique(X[:, j])
        for t in (v[1:] + v[:-1]) / 2:
            m = X[:, j] <= t
            l, r = Node(y[m]), Node(y[~m])
            g = root.impurity(criterion) - (l.size * l.impurity(criterion) + r.size * r.impurity(criterion)) / root.size
            if best is None or g > best[2]:
                best = (j, t, g)
    return best
