# kata: kmeans
import numpy as np
from scipy.spatial.distance import cdist


def kmeans(X, init_centroids, max_iter=100):
    centers = np.array(init_centroids, dtype=X.dtype)
    last = None
    for _ in range(max_iter):
        labels = cdist(X, centers).argmin(axis=1)
        if last is not None and (labels == last).all():
            break
        last = labels
        for j in range(centers.shape[0]):
            members = X[labels == j]
            if members.size:
                centers[j] = members.mean(axis=0)
    return centers, cdist(X, centers).argmin(axis=1)
