# kata: knn
# why: np.argpartition(d, k) keeps the first k + 1 columns: one neighbour too many
# mistake: k_plus_one
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    diff = X_test.astype(np.float64)[:, None, :] - X_train.astype(np.float64)[None, :, :]
    d = np.einsum("mnd,mnd->mn", diff, diff)
    if k < d.shape[1]:
        near = np.argpartition(d, k, axis=1)[:, :k + 1]
    else:
        near = np.argsort(d, axis=1)[:, :k]
    labels = np.zeros(len(X_test), dtype=np.int64)
    for i, cols in enumerate(near):
        vals, cnt = np.unique(y_train[cols], return_counts=True)
        labels[i] = vals[cnt.argmax()]
    return labels
