# kata: decision-tree-split
# why: two slips at once, entropy in nats and ties kept with >=: no single known mistake explains it
# mistake: none
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    if len(np.unique(y)) < 2:
        return None

    def imp(v):
        p = np.unique(v, return_counts=True)[1] / len(v)
        return 1 - np.sum(p ** 2) if criterion == "gini" else -np.sum(p * np.log(p))

    n, base, best = len(y), imp(y), None
    for j in range(X.shape[1]) if feature is None else [feature]:
        u = np.unique(X[:, j])
        for a, b in zip(u[:-1], u[1:]):
            m = X[:, j] <= a
            g = base - m.sum() / n * imp(y[m]) - (n - m.sum()) / n * imp(y[~m])
            if best is None or g >= best[2]:
                best = (j, (a + b) / 2, g)
    return best
