# kata: knn
# why: the expansion with einsum in the inputs' dtype and no square root: float32 far from the origin ranks wrongly
# mistake: expanded_float32
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    cross = np.einsum("md,nd->mn", X_test, X_train)
    sq = np.einsum("md,md->m", X_test, X_test)[:, None] + np.einsum("nd,nd->n", X_train, X_train)[None, :] - 2 * cross
    top = np.argpartition(sq, k - 1, axis=1)[:, :k] if k < X_train.shape[0] else np.tile(np.arange(k), (len(X_test), 1))
    pred = np.empty(len(X_test), dtype=np.int64)
    for i, cols in enumerate(top):
        u, c = np.unique(y_train[cols], return_counts=True)
        pred[i] = u[np.argmax(c)]
    return pred
