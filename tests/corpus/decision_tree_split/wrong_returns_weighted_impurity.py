# kata: decision-tree-split
# why: picks the split with the lowest weighted child impurity (the right split) but returns that impurity, not the
# parent's impurity minus it
# mistake: child_impurity_returned
import numpy as np


def best_split(X, y, criterion="gini", feature=None):
    if criterion not in ("gini", "entropy"):
        raise ValueError(criterion)
    classes = np.unique(y)
    if classes.size < 2:
        return None

    def impurity(part):
        p = np.array([(part == c).mean() for c in classes])
        if criterion == "gini":
            return 1 - (p ** 2).sum()
        p = p[p > 0]
        return -(p * np.log2(p)).sum()

    n = len(y)
    lowest = None
    for j in ([feature] if feature is not None else range(X.shape[1])):
        values = np.unique(X[:, j])
        for t in (values[:-1] + values[1:]) / 2:
            m = X[:, j] <= t
            weighted = m.sum() / n * impurity(y[m]) + (n - m.sum()) / n * impurity(y[~m])
            if lowest is None or weighted < lowest[2]:
                lowest = (j, t, weighted)
    return lowest
