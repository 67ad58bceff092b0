# kata: knn
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d2 = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=-1)
    nearest = np.argsort(d2, axis=1)[:, :k]
    predictions = np.empty(len(X_test), dtype=np.int64)
    for i, idx in enumerate(nearest):
        counts = np.bincount(y_train[idx])
        predictions[i] = np.argmax(counts)
    return predictions
