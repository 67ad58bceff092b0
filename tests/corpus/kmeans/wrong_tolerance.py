# kata: kmeans
# why: stops as soon as the centroids move less than 1e-4 (a tolerance): on a slow run, labels would still change
# mistake: tolerance_stop
import numpy as np


def kmeans(X, init_centroids, max_iter=100, tol=1e-4):
    C = init_centroids.copy()
    for _ in range(max_iter):
        labels = np.argmin(((X[:, None, :] - C[None, :, :]) ** 2).sum(-1), axis=1)
        new_C = C.copy()
        for k in range(len(C)):
            if np.any(labels == k):
                new_C[k] = X[labels == k].mean(0)
        shift = np.linalg.norm(new_C - C)
        C = new_C
        if shift < tol:
            break
    labels = np.argmin(((X[:, None, :] - C[None, :, :]) ** 2).sum(-1), axis=1)
    return C, labels
