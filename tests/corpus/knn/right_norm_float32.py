# kata: knn
# why: np.linalg.norm of the differences in the inputs' own dtype (float32 stays float32: subtracting first is exact enough), true distances with the square root
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    out = []
    for x in X_test:
        dists = np.linalg.norm(X_train - x, axis=1)
        nn = y_train[np.argsort(dists)[:k]]
        vals, cnts = np.unique(nn, return_counts=True)
        out.append(vals[cnts == cnts.max()].min())
    return np.array(out, dtype=np.int64)
