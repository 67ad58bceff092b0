# kata: knn
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    predictions = []
    for q in X_test:
        pairs = []
        for i, x in enumerate(X_train):
            d = 0.0
            for a, b in zip(q, x):
                d += (float(a) - float(b)) ** 2
            pairs.append((d, i))
        pairs.sort()
        votes = {}
        for _, i in pairs[:k]:
            label = int(y_train[i])
            votes[label] = votes.get(label, 0) + 1
        best = max(votes.values())
        predictions.append(min(label for label, n in votes.items() if n == best))
    return np.array(predictions, dtype=np.int64)
