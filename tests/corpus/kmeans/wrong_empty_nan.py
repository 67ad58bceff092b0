# kata: kmeans
# why: the means in a list comprehension: an empty cluster's mean is NaN (mean of nothing), and then every point goes to it
# mistake: empty_nan
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    centroids = init_centroids.copy()
    labels = np.argmin(((X[:, None] - centroids) ** 2).sum(-1), 1)
    for _ in range(max_iter):
        centroids = np.array([X[labels == k].mean(axis=0) for k in range(len(centroids))], dtype=X.dtype)
        new = np.argmin(((X[:, None] - centroids) ** 2).sum(-1), 1)
        if (new == labels).all():
            break
        labels = new
    return centroids, labels
