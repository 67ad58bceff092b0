# kata: knn
# why: features standardised with the training mean and std before the distances
# mistake: standardised
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    mu = X_train.mean(axis=0)
    sigma = X_train.std(axis=0)
    sigma[sigma == 0] = 1.0
    A = (X_train - mu) / sigma
    B = (X_test - mu) / sigma
    d2 = ((B[:, None, :] - A[None, :, :]) ** 2).sum(-1)
    idx = np.argsort(d2, axis=1)[:, :k]
    out = np.empty(len(X_test), dtype=np.int64)
    for i in range(len(X_test)):
        v, c = np.unique(y_train[idx[i]], return_counts=True)
        out[i] = v[np.argmax(c)]
    return out
