"""Area under the ROC curve as the Mann–Whitney U statistic, and its per-group average (GAUC).

AUC = P(s⁺ > s⁻) + ½·P(s⁺ = s⁻) over all (positive, negative) pairs: U/(n₁·n₀) (Mann & Whitney 1947;
Hanley & McNeil 1982, "The meaning and use of the area under a ROC curve", eq. 2). Equal scores are one
threshold of the ROC curve, whose segment the trapezoid rule integrates: each tied pair counts ½, exactly
scikit-learn's `roc_auc_score`.

GAUC (Zhou et al. 2018, "Deep Interest Network", §6.1) averages the AUC of each group (user) that holds
both classes, weighted by the group's number of impressions: Σ_g n_g·AUC_g / Σ_g n_g.
"""
import numpy as np


def _auc(y_true, y_score):
    """y_true [N] bool, y_score [N]: the Mann–Whitney U over n1·n0."""
    pos, neg = y_score[y_true], y_score[~y_true]  # [n1], [n0]
    if pos.size == 0 or neg.size == 0:
        raise ValueError(f"AUC needs both classes: {pos.size} positives and {neg.size} negatives")
    won = np.count_nonzero(pos[:, None] > neg[None, :])  # [n1, n0] pairs ranked right
    tied = np.count_nonzero(pos[:, None] == neg[None, :])  # [n1, n0] pairs tied: ½ each
    return (won + 0.5 * tied) / (pos.size * neg.size)


def roc_auc(y_true, y_score, groups=None):
    """y_true [N] 0/1 (int, float or bool), y_score [N] float or int, groups [N] ids or None. Returns a float."""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    assert y_true.ndim == 1 and y_score.shape == y_true.shape, f"shapes {y_true.shape} and {y_score.shape}"
    labels = y_true.astype(bool)
    if groups is None:
        return float(_auc(labels, y_score))
    groups = np.asarray(groups)
    assert groups.shape == y_true.shape, f"groups must be [N] = [{y_true.size}], got shape {groups.shape}"
    total = weight = 0.0
    for g in np.unique(groups):
        member = groups == g  # [N]
        if labels[member].all() or not labels[member].any():
            continue  # one class only: no AUC, skipped
        n = np.count_nonzero(member)
        total += n * _auc(labels[member], y_score[member])
        weight += n
    if weight == 0:
        raise ValueError("GAUC needs at least one group that holds both classes")
    return float(total / weight)
