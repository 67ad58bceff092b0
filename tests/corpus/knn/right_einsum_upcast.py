# kata: knn
# why: the expansion |q|^2 - 2 q.x + |x|^2 with einsum, upcast to float64 first (scikit-learn's way), votes by a one-hot matrix over the sorted classes
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    A = np.asarray(X_train, dtype=np.float64)
    B = np.asarray(X_test, dtype=np.float64)
    sq = np.einsum("ij,ij->i", B, B)[:, None] + np.einsum("ij,ij->i", A, A)[None, :] - 2 * np.einsum("id,jd->ij", B, A)
    neighbours = np.argsort(sq, axis=1, kind="stable")[:, :k]
    classes, code = np.unique(y_train, return_inverse=True)
    onehot = np.eye(len(classes), dtype=np.int64)[code.ravel()]
    tally = onehot[neighbours].sum(axis=1)
    return classes[tally.argmax(axis=1)].astype(np.int64)
