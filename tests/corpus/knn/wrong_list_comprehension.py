# kata: knn
# why: the predictions returned as the list a comprehension builds
# mistake: list_returned
import numpy as np


def _vote(labels):
    u, c = np.unique(labels, return_counts=True)
    return int(u[np.argmax(c)])


def knn_predict(X_train, y_train, X_test, k=5):
    return [_vote(y_train[np.argsort(((X_train - q) ** 2).sum(1))[:k]]) for q in X_test]
