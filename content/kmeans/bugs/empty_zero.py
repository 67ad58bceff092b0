# kata: kmeans
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    K, D = init_centroids.shape
    C = init_centroids.copy()
    labels = None
    for _ in range(max_iter):
        new_labels = ((X[:, None, :] - C[None]) ** 2).sum(-1).argmin(1)
        if labels is not None and (new_labels == labels).all():
            break
        labels = new_labels
        # cluster sums and sizes in one pass
        sums = np.zeros((K, D), dtype=X.dtype)
        np.add.at(sums, labels, X)
        counts = np.bincount(labels, minlength=K).astype(X.dtype)
        C = sums / np.maximum(counts, 1)[:, None]
    return C, ((X[:, None, :] - C[None]) ** 2).sum(-1).argmin(1)
