# kata: knn
# why: np.argsort(-dist) (a descending sort) taken as the nearest: the k farthest points vote
# mistake: farthest
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    dist = np.sqrt(((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1))
    idx = np.argsort(-dist, axis=1)[:, :k]
    labels = np.empty(X_test.shape[0], dtype=np.int64)
    for row in range(idx.shape[0]):
        c, n = np.unique(y_train[idx[row]], return_counts=True)
        labels[row] = c[n.argmax()]
    return labels
