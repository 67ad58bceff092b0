# kata: kmeans
# why: rounds the centroids to 4 decimals after every update (np.round, "to keep them readable"): the labels come out right, the centroids are off by up to 5e-5; a rounding, not float32, and never a torch hint
# mistake: none
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
        centroids = np.round(centroids, 4)
        prev = labels
    d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1)
    return centroids, d.argmin(axis=1)
