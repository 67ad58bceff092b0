# kata: roc-auc
import numpy as np


def auc_score(labels, scores):
    pos = scores[labels]
    neg = scores[~labels]
    if len(pos) == 0 or len(neg) == 0:
        raise ValueError("AUC is undefined with one class")
    greater = (pos[:, None] > neg[None, :]).sum()
    equal = (pos[:, None] == neg[None, :]).sum()
    return (greater + 0.5 * equal) / (len(pos) * len(neg))


def roc_auc(y_true, y_score, groups=None):
    labels = np.asarray(y_true).astype(bool)
    scores = np.asarray(y_score)
    if groups is None:
        return float(auc_score(labels, scores))
    groups = np.asarray(groups)
    per_user = []
    for user in np.unique(groups):
        mask = groups == user
        if labels[mask].all() or not labels[mask].any():
            continue  # users with only clicks or only non-clicks have no AUC
        per_user.append(auc_score(labels[mask], scores[mask]))
    if not per_user:
        raise ValueError("GAUC needs a user with both clicks and non-clicks")
    return float(np.mean(per_user))
