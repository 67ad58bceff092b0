# kata: knn
# why: a vectorised answer copied from a leave-one-out evaluation: the first column of the ranking is dropped, as if the query were its own nearest point
# mistake: nearest_skipped
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    dist = np.linalg.norm(X_test[:, None] - X_train[None], axis=2)
    neigh = np.argsort(dist, axis=1)[:, 1:k + 1]
    out = []
    for labs in y_train[neigh]:
        u, c = np.unique(labs, return_counts=True)
        out.append(u[np.argmax(c)])
    return np.array(out, dtype=np.int64)
