"""k-means by Lloyd's algorithm, in NumPy.

Lloyd (1982), "Least squares quantization in PCM", IEEE Trans. Inf. Theory 28(2): alternate
    assignment  l_i = argmin_k ||x_i - c_k||²        (exact ties to the lowest k, as np.argmin)
    update      c_k = mean{x_i : l_i = k}             (a cluster with no point keeps c_k)
until the assignment repeats, at most `max_iter` rounds. The returned labels are the assignment of X
to the returned centroids (scikit-learn's final E-step), so a run cut short by max_iter is consistent.
With no cluster emptying on the way this is scikit-learn's
KMeans(init=C0, n_init=1, algorithm="lloyd", tol=0, max_iter=max_iter).
"""
import numpy as np


def assign(X, C):
    """(N,) int64: the index of the nearest centroid by squared Euclidean distance, ties to the lowest."""
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=-1)  # (N, K)
    return np.argmin(d, axis=1).astype(np.int64)


def kmeans(X, init_centroids, max_iter=100):
    """X: (N, D) float; init_centroids: (K, D) in X's dtype. Returns (centroids (K, D), labels (N,) int64)."""
    N, D = X.shape
    K = init_centroids.shape[0]
    assert init_centroids.shape == (K, D) and 1 <= K <= N, f"init_centroids {init_centroids.shape} for X {X.shape}"
    assert max_iter >= 0, f"max_iter must be >= 0, got {max_iter}"
    C = init_centroids.copy()  # a new array: the caller's init is left alone
    previous = None
    for _ in range(max_iter):
        labels = assign(X, C)
        if previous is not None and np.array_equal(labels, previous):
            break  # the assignment repeats: the centroids would not move again
        for k in range(K):
            members = X[labels == k]  # (n_k, D)
            if len(members):
                C[k] = members.mean(axis=0)
        previous = labels
    return C, assign(X, C)
