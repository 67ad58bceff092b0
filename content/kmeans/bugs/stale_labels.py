# kata: kmeans
import numpy as np


def assign(X, C):
    d = np.sum((X[:, None, :] - C[None, :, :]) ** 2, axis=-1)
    return np.argmin(d, axis=1)


def kmeans(X, init_centroids, max_iter=100):
    C = init_centroids.copy()
    labels = assign(X, C)
    for it in range(max_iter):
        labels = assign(X, C)
        new_C = C.copy()
        for k in range(len(C)):
            if np.any(labels == k):
                new_C[k] = X[labels == k].mean(axis=0)
        if np.array_equal(new_C, C):
            break
        C = new_C
    return C, labels
