# kata: kmeans
import numpy as np


def nearest(x, centroids):
    best, best_d = 0, None
    for k, c in enumerate(centroids):
        dist = float(np.sum((x - c) ** 2))
        if best_d is None or dist < best_d:
            best, best_d = k, dist
    return best


def kmeans(X, init_centroids, max_iter=100):
    n, dim = X.shape
    K = init_centroids.shape[0]
    C = np.array(init_centroids, copy=True)
    for it in range(max_iter):
        labels = [nearest(X[i], C) for i in range(n)]
        sums = np.zeros((K, dim), dtype=np.float64)
        counts = [0] * K
        for i in range(n):
            sums[labels[i]] += X[i]
            counts[labels[i]] += 1
        for k in range(K):
            if counts[k] > 0:
                C[k] = sums[k] / counts[k]
    labels = np.array([nearest(X[i], C) for i in range(n)], dtype=np.int64)
    return C, labels
