# kata: knn
# why: the right int64 array turned into a list with .tolist() before returning
# mistake: list_returned
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d2 = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1)
    out = np.zeros(len(X_test), dtype=np.int64)
    for i, idx in enumerate(np.argsort(d2, axis=1)[:, :k]):
        u, c = np.unique(y_train[idx], return_counts=True)
        out[i] = u[np.argmax(c)]
    return out.tolist()
