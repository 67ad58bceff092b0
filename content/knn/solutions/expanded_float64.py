# kata: knn
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    A = X_train.astype(np.float64)
    B = X_test.astype(np.float64)
    d2 = (B**2).sum(axis=1)[:, None] - 2.0 * B @ A.T + (A**2).sum(axis=1)[None, :]
    d2 = np.maximum(d2, 0.0)
    nearest = np.argpartition(d2, k - 1, axis=1)[:, :k]
    out = np.empty(len(X_test), dtype=np.int64)
    for row, idx in enumerate(nearest):
        classes, counts = np.unique(y_train[idx], return_counts=True)
        out[row] = classes[np.argmax(counts)]
    return out
