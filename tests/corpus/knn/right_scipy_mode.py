# kata: knn
# why: scipy.stats.mode over the neighbours' labels (it returns the smallest of equal modes), distances by an explicit double loop
import numpy as np
from scipy import stats


def knn_predict(X_train, y_train, X_test, k=5):
    M, N = len(X_test), len(X_train)
    dist = np.zeros((M, N))
    for i in range(M):
        for j in range(N):
            dist[i, j] = np.sqrt(np.sum((X_test[i].astype(float) - X_train[j].astype(float)) ** 2))
    nearest = y_train[np.argsort(dist, axis=1)[:, :k]]
    if M == 0:
        return np.zeros(0, dtype=np.int64)
    return np.asarray(stats.mode(nearest, axis=1, keepdims=False).mode, dtype=np.int64).reshape(M)
