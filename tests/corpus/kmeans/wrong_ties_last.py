# kata: kmeans
# why: a loop with <=: an exact tie moves on to the later centroid, so ties go to the last index
# mistake: ties_to_last
import numpy as np


def kmeans(X, init_centroids, max_iter=100):
    C = init_centroids.copy()
    N, K = len(X), len(C)

    def assign():
        out = np.zeros(N, dtype=np.int64)
        for i in range(N):
            best = np.inf
            for k in range(K):
                dist = ((X[i] - C[k]) ** 2).sum()
                if dist <= best:
                    best, out[i] = dist, k
        return out

    prev = None
    for _ in range(max_iter):
        labels = assign()
        if prev is not None and (labels == prev).all():
            break
        for k in range(K):
            if (labels == k).sum():
                C[k] = X[labels == k].mean(0)
        prev = labels
    return C, assign()
