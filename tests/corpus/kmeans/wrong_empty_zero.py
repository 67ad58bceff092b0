# kata: kmeans
# why: sums / max(count, 1) with np.add.at: an empty cluster's centroid becomes 0 instead of staying where it was
# mistake: empty_zero
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    K, D = init_centroids.shape
    C = init_centroids.copy()
    labels = None
    for _ in range(max_iter):
        new_labels = ((X[:, None, :] - C[None]) ** 2).sum(-1).argmin(1)
        if labels is not None and np.array_equal(labels, new_labels):
            break
        labels = new_labels
        sums = np.zeros((K, D), dtype=X.dtype)
        np.add.at(sums, labels, X)
        counts = np.bincount(labels, minlength=K)
        C = sums / np.maximum(counts, 1)[:, None].astype(X.dtype)
    return C, ((X[:, None, :] - C[None]) ** 2).sum(-1).argmin(1)
