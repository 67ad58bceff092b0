# kata: kmeans
# why: returns the labels of the last assignment, made before the last update: a run cut short by max_iter gives labels that do not match its centroids
# mistake: stale_labels
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    C = init_centroids.copy()
    labels = np.argmin(((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2), axis=1)
    for i in range(max_iter):
        labels = np.argmin(((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2), axis=1)
        new_C = np.stack([X[labels == k].mean(axis=0) if (labels == k).any() else C[k] for k in range(len(C))])
        if np.array_equal(new_C, C):
            break
        C = new_C
    return C, labels
