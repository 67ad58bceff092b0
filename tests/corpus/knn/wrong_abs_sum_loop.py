# kata: knn
# why: the distance as the sum of absolute differences in a helper: Manhattan, not Euclidean
# mistake: manhattan
import numpy as np


def distance(a, b):
    return np.sum(np.abs(a - b), axis=-1)


def knn_predict(X_train, y_train, X_test, k=5):
    result = np.empty(len(X_test), dtype=np.int64)
    for i, q in enumerate(X_test):
        nn = np.argsort(distance(X_train, q))[:k]
        classes, counts = np.unique(y_train[nn], return_counts=True)
        result[i] = classes[np.argmax(counts)]
    return result
