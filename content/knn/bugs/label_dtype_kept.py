# kata: knn
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d2 = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=-1)
    nearest = np.argsort(d2, axis=1)[:, :k]
    predictions = np.zeros(len(X_test), dtype=y_train.dtype)
    for i, idx in enumerate(nearest):
        classes, counts = np.unique(y_train[idx], return_counts=True)
        predictions[i] = classes[np.argmax(counts)]
    return predictions
