# kata: kmeans
# why: two mistakes at once: a 1e-3 tolerance on the shift and the labels of the last assignment (not of the returned centroids)
# mistake: none
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    C = init_centroids.copy()
    labels = np.argmin(((X[:, None, :] - C[None, :, :]) ** 2).sum(-1), axis=1)
    for _ in range(max_iter):
        labels = np.argmin(((X[:, None, :] - C[None, :, :]) ** 2).sum(-1), axis=1)
        new_C = C.copy()
        for k in range(len(C)):
            if (labels == k).any():
                new_C[k] = X[labels == k].mean(axis=0)
        if np.abs(new_C - C).max() < 1e-3:
            C = new_C
            break
        C = new_C
    return C, labels
