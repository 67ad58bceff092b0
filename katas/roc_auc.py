# kata: roc-auc
import numpy as np


def roc_auc(y_true, y_score, groups=None):
    raise NotImplementedError("write roc_auc")
