# kata: knn
# why: the distances sorted and then reversed ([::-1]): the k farthest points vote
# mistake: farthest
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    predictions = np.empty(len(X_test), dtype=np.int64)
    for n, point in enumerate(X_test):
        d = ((X_train - point) ** 2).sum(axis=1)
        ranked = np.argsort(d)[::-1]
        top = y_train[ranked[:k]]
        values, counts = np.unique(top, return_counts=True)
        predictions[n] = values[np.argmax(counts)]
    return predictions
