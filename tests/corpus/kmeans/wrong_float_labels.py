# kata: kmeans
# why: labels filled into np.zeros(N), which is float64: the labels come back as floats
# mistake: labels_float
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    C = init_centroids.copy()
    N = X.shape[0]

    def assign(C):
        labels = np.zeros(N)
        for i in range(N):
            labels[i] = np.argmin(np.sum((C - X[i]) ** 2, axis=1))
        return labels

    old = None
    for _ in range(max_iter):
        labels = assign(C)
        if old is not None and np.array_equal(labels, old):
            break
        for k in range(len(C)):
            if np.any(labels == k):
                C[k] = X[labels == k].mean(axis=0)
        old = labels
    return C, assign(C)
