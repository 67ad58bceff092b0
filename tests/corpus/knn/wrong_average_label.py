# kata: knn
# why: the neighbours' labels averaged and rounded, as kNN regression would
# mistake: mean_label
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    sq = np.sum((X_test[:, None, :] - X_train[None, :, :]) ** 2, axis=2)
    idx = np.argsort(sq, axis=1)[:, :k]
    return np.round(y_train[idx].mean(axis=1)).astype(np.int64)
