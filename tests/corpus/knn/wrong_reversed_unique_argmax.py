# kata: knn
# why: np.unique's arrays reversed before argmax, so the last (largest) of equal counts wins
# mistake: vote_tie_largest
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d2 = np.square(X_test[:, np.newaxis, :] - X_train[np.newaxis, :, :]).sum(axis=2)
    order = np.argsort(d2, axis=1)[:, :k]
    out = np.empty(len(X_test), dtype=np.int64)
    for i in range(len(X_test)):
        vals, cnts = np.unique(y_train[order[i]], return_counts=True)
        out[i] = vals[::-1][np.argmax(cnts[::-1])]
    return out
