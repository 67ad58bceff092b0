# kata: knn
# why: all distances by broadcasting, np.argsort's default (unstable) quicksort, np.unique + argmax per query
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d2 = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=-1)
    idx = np.argsort(d2, axis=1)[:, :k]
    preds = np.zeros(X_test.shape[0], dtype=np.int64)
    for i in range(X_test.shape[0]):
        labels, counts = np.unique(y_train[idx[i]], return_counts=True)
        preds[i] = labels[counts.argmax()]
    return preds
