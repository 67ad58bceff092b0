# kata: kmeans
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    centroids = init_centroids
    K = centroids.shape[0]
    prev_labels = None
    for _ in range(max_iter):
        # squared distance from every point to every centroid: [N, K]
        dists = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(dists, axis=1)
        if prev_labels is not None and np.array_equal(labels, prev_labels):
            break
        for k in range(K):
            members = X[labels == k]
            if members.shape[0] > 0:
                centroids[k] = members.mean(axis=0)
        prev_labels = labels
    dists = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return centroids, np.argmin(dists, axis=1)
