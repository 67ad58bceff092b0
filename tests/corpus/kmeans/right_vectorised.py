# kata: kmeans
# why: right — broadcasting for the [N, K] distances, np.argmin, a mask per cluster for the means
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    centroids = init_centroids.copy()
    prev = None
    for _ in range(max_iter):
        d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1)  # [N, K]
        labels = d.argmin(axis=1)
        if prev is not None and np.array_equal(labels, prev):
            break
        for k in range(len(centroids)):
            mask = labels == k
            if mask.any():
                centroids[k] = X[mask].mean(axis=0)
        prev = labels
    d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1)
    return centroids, d.argmin(axis=1)
