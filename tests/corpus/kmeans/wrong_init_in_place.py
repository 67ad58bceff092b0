# kata: kmeans
# why: C = init_centroids is not a copy: C[k] = ... writes the means into the caller's init_centroids
# mistake: init_in_place
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    C = init_centroids
    labels = np.argmin(((X[:, None] - C[None]) ** 2).sum(-1), axis=1)
    for it in range(max_iter):
        for k in range(C.shape[0]):
            pts = X[labels == k]
            if len(pts) > 0:
                C[k] = pts.mean(axis=0)
        new_labels = np.argmin(((X[:, None] - C[None]) ** 2).sum(-1), axis=1)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
    return C, labels
