# kata: knn
# why: votes weighted by 1/d^2 (squared distances, a tiny epsilon) with np.add.at
# mistake: distance_weighted
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    classes, codes = np.unique(y_train, return_inverse=True)
    codes = codes.reshape(-1)
    d2 = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1)
    nn = np.argsort(d2, axis=1)[:, :k]
    out = np.empty(len(X_test), dtype=np.int64)
    for i in range(len(X_test)):
        score = np.zeros(len(classes))
        np.add.at(score, codes[nn[i]], 1.0 / (d2[i, nn[i]] + 1e-10))
        out[i] = classes[np.argmax(score)]
    return out
