# kata: kmeans
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    n_clusters = len(init_centroids)
    centroids = init_centroids.copy()
    for _ in range(max_iter):
        labels = np.array([np.argmin(((centroids - x) ** 2).sum(axis=1)) for x in X])
        new_centroids = centroids.copy()
        for k in range(n_clusters):
            if (labels == k).any():
                new_centroids[k] = X[labels == k].mean(axis=0)
        converged = np.allclose(new_centroids, centroids)
        centroids = new_centroids
        if converged:
            break
    labels = np.array([np.argmin(((centroids - x) ** 2).sum(axis=1)) for x in X], dtype=np.int64)
    return centroids, labels
