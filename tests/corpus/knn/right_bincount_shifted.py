# kata: knn
# why: np.bincount on label codes from np.unique(return_inverse) (never on the raw labels), argpartition for the k nearest
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    if len(X_test) == 0:
        return np.zeros(0, dtype=np.int64)
    classes, codes = np.unique(y_train, return_inverse=True)
    codes = codes.reshape(-1)
    dist = np.sqrt(((X_test[:, np.newaxis] - X_train[np.newaxis]) ** 2).sum(-1))
    part = np.argpartition(dist, k - 1, axis=1)[:, :k]
    result = [classes[np.bincount(codes[row], minlength=len(classes)).argmax()] for row in part]
    return np.asarray(result).astype(np.int64)
