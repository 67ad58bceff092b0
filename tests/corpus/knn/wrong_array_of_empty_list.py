# kata: knn
# why: np.array of the collected predictions without a dtype: int64 for queries, float64 when there is none
# mistake: empty_float
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    collected = []
    for q in X_test:
        order = np.argsort(np.sum((X_train - q) ** 2, axis=1))
        u, c = np.unique(y_train[order[:k]], return_counts=True)
        collected.append(int(u[np.argmax(c)]))
    return np.array(collected)
