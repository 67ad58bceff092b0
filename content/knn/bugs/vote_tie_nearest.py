# kata: knn
from collections import Counter

import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d2 = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=-1)
    nearest = np.argsort(d2, axis=1)[:, :k]
    predictions = np.empty(len(X_test), dtype=np.int64)
    for i, idx in enumerate(nearest):
        votes = Counter(y_train[idx].tolist())
        predictions[i] = votes.most_common(1)[0][0]
    return predictions
