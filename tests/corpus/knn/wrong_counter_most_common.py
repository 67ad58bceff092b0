# kata: knn
# why: the textbook loop: sort by distance, Counter(...).most_common(1) - an equal count goes to the label met first (the nearest), not the smallest
# mistake: vote_tie_nearest
from collections import Counter

import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    preds = []
    for query in X_test:
        distances = np.sqrt(np.sum((X_train - query) ** 2, axis=1))
        k_idx = np.argsort(distances)[:k]
        k_labels = [y_train[i] for i in k_idx]
        preds.append(Counter(k_labels).most_common(1)[0][0])
    return np.array(preds, dtype=np.int64)
