# kata: knn
# why: scipy's cdist with metric="cityblock": Manhattan distance, not Euclidean
# mistake: manhattan
import numpy as np
from scipy.spatial.distance import cdist


def knn_predict(X_train, y_train, X_test, k=5):
    D = cdist(X_test, X_train, metric="cityblock")
    idx = np.argsort(D, axis=1, kind="stable")[:, :k]
    res = np.empty(len(X_test), dtype=np.int64)
    for i in range(len(X_test)):
        cls, n = np.unique(y_train[idx[i]], return_counts=True)
        res[i] = cls[np.argmax(n)]
    return res
