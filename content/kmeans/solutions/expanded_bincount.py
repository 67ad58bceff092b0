# kata: kmeans
import numpy as np


def _assign(X, C):
    d = (X ** 2).sum(1)[:, None] - 2.0 * X @ C.T + (C ** 2).sum(1)[None, :]
    return np.argmin(np.maximum(d, 0), axis=1)


def kmeans(X, init_centroids, max_iter=100):
    K = len(init_centroids)
    C = init_centroids.astype(X.dtype, copy=True)
    for _ in range(max_iter):
        labels = _assign(X, C)
        sums = np.zeros_like(C)
        np.add.at(sums, labels, X)
        counts = np.bincount(labels, minlength=K)
        new_C = C.copy()
        filled = counts > 0
        new_C[filled] = sums[filled] / counts[filled, None].astype(X.dtype)
        if np.array_equal(new_C, C):
            break
        C = new_C
    return C, _assign(X, C).astype(np.int64)
