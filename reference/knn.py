"""k-nearest-neighbour classification, in NumPy.

Cover & Hart (1967), "Nearest neighbor pattern classification", IEEE Trans. Inf. Theory 13(1); as
scikit-learn's KNeighborsClassifier(n_neighbors=k, weights="uniform", algorithm="brute"):
    d(q, x_i) = ||q - x_i||                              Euclidean, ranked on the exact differences
    N_k(q)    = the k training points nearest to q        (equal distances: lowest index first here;
                                                           the contract accepts any of them)
    ŷ(q)      = argmax_c |{i in N_k(q) : y_i = c}|        equal votes to the smallest label c, as
                                                           scikit-learn's mode over its sorted classes_
                                                           and CS231n's "choosing the smaller label"
"""
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    """X_train: (N, D) float; y_train: (N,) int, any values; X_test: (M, D) in X_train's dtype.
    Returns (M,) int64: the majority label of each query's k nearest training points."""
    N, D = X_train.shape
    M = X_test.shape[0]
    assert y_train.shape == (N,) and X_test.shape[1:] == (D,), f"{X_train.shape} {y_train.shape} {X_test.shape}"
    assert 1 <= k <= N, f"k must be in [1, {N}], got {k}"
    # Subtract first, in float64: ||q||² - 2q·x + ||x||² cancels when the points sit far from the origin.
    diff = X_test[:, None, :].astype(np.float64) - X_train[None, :, :].astype(np.float64)  # (M, N, D)
    d2 = (diff**2).sum(axis=-1)  # (M, N) squared distances: the same order as the distances
    nearest = np.argsort(d2, axis=1, kind="stable")[:, :k]  # (M, k) indices of the k nearest
    classes, codes = np.unique(y_train, return_inverse=True)  # classes sorted: index order is label order
    votes = np.zeros((M, len(classes)), dtype=np.int64)  # (M, C)
    np.add.at(votes, (np.arange(M)[:, None], codes.reshape(-1)[nearest]), 1)
    return classes[np.argmax(votes, axis=1)].astype(np.int64)  # argmax: the first (smallest) of equal counts
