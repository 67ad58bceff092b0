"""The best split of one decision-tree node, by Gini impurity or entropy: the root split of CART.

For each searched feature j, the distinct values v_1 < … < v_m of X[:, j] give m − 1 candidate splits,
left = {x_j ≤ v_i}, right = {x_j ≥ v_{i+1}} (never between equal values), each at the midpoint threshold
t = v_i/2 + v_{i+1}/2 with x ≤ t going left (Breiman et al. 1984, "Classification and Regression Trees";
scikit-learn's `BestSplitter`). A split is scored by the information gain

    gain = I(S) − (n_L/N)·I(L) − (n_R/N)·I(R)

with I the Gini impurity 1 − Σ_k p_k² (CART) or the entropy −Σ_k p_k·log₂ p_k in bits (Quinlan 1986, "Induction
of Decision Trees": ID3).
The largest gain wins; equal gains go to the lowest feature, then the lowest split (a strict > while
scanning features in order and thresholds upwards). A zero gain is still a split (an XOR node); a pure node
and a node with no candidate are leaves: None. This is scikit-learn's
`DecisionTreeClassifier(criterion=…, max_depth=1)` root split wherever the best split is unique.
"""
import numpy as np

CRITERIA = ("gini", "entropy")


def impurity(counts, criterion):
    """counts [..., K] class counts of one set per row (no empty set): its Gini impurity or entropy in bits."""
    p = counts / counts.sum(axis=-1, keepdims=True)  # [..., K]
    if criterion == "gini":
        return 1.0 - (p * p).sum(axis=-1)
    return -(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=-1)  # 0·log 0 = 0


def split_gains(x, onehot, criterion):
    """x [N] one feature, onehot [N, K] the labels: (v [m] its distinct values, gains [m − 1] of each split)."""
    order = np.argsort(x, kind="stable")
    xs = x[order]  # [N] sorted
    prefix = np.cumsum(onehot[order], axis=0)  # [N, K]: counts of the first i + 1 sorted samples
    last = np.flatnonzero(xs[1:] > xs[:-1])  # [m − 1] the last sample of each value but the largest
    left = prefix[last]  # [m − 1, K]
    right = prefix[-1] - left  # [m − 1, K]
    n, n_left = x.shape[0], last + 1.0  # [m − 1]
    gains = (impurity(prefix[-1], criterion)
             - n_left / n * impurity(left, criterion) - (n - n_left) / n * impurity(right, criterion))
    return np.unique(x), gains


def best_split(X, y, criterion="gini", feature=None):
    """X [N, D] float, y [N] integer labels of any values. Returns (feature, threshold, gain) or None."""
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be 'gini' or 'entropy', got {criterion!r}")
    assert X.ndim == 2 and y.shape == (X.shape[0],), f"X {X.shape} and y {y.shape}"
    classes, codes = np.unique(y, return_inverse=True)  # labels of any values -> 0 … K − 1
    if classes.size < 2:
        return None  # a pure node is a leaf
    onehot = np.eye(classes.size)[codes]  # [N, K]
    best = None
    for j in range(X.shape[1]) if feature is None else (feature,):
        x = X[:, j].astype(np.float64)
        v, gains = split_gains(x, onehot, criterion)
        if gains.size == 0:
            continue  # a constant feature: no candidate
        i = int(np.argmax(gains))  # the first of equal gains: the lowest split
        if best is None or gains[i] > best[2]:  # strict: equal gains keep the lower feature
            t = v[i] / 2 + v[i + 1] / 2  # the midpoint, as scikit-learn computes it
            best = (int(j), float(t if t < v[i + 1] else v[i]), float(gains[i]))
    return best
