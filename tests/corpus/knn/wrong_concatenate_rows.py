# kata: knn
# why: one small array per query joined by np.concatenate, which raises when there is no query
# mistake: no_queries_crash
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    parts = []
    for q in X_test:
        nn = np.argsort(np.linalg.norm(X_train - q, axis=1))[:k]
        u, c = np.unique(y_train[nn], return_counts=True)
        parts.append(np.array([u[np.argmax(c)]], dtype=np.int64))
    return np.concatenate(parts)
