# kata: knn
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    test_sq = (X_test**2).sum(axis=1, keepdims=True)
    train_sq = (X_train**2).sum(axis=1)
    d2 = test_sq - 2 * X_test @ X_train.T + train_sq
    nearest = np.argsort(d2, axis=1)[:, :k]
    predictions = np.empty(len(X_test), dtype=np.int64)
    for i, idx in enumerate(nearest):
        classes, counts = np.unique(y_train[idx], return_counts=True)
        predictions[i] = classes[np.argmax(counts)]
    return predictions
