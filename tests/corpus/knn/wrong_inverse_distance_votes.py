# kata: knn
# why: each neighbour's vote weighted by 1/distance (with a small epsilon), as weights="distance" does
# mistake: distance_weighted
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    out = np.empty(X_test.shape[0], dtype=np.int64)
    for i, q in enumerate(X_test):
        dist = np.sqrt(((X_train - q) ** 2).sum(axis=1))
        nbrs = np.argsort(dist)[:k]
        score = {}
        for j in nbrs:
            score[y_train[j]] = score.get(y_train[j], 0.0) + 1.0 / (dist[j] + 1e-9)
        out[i] = max(sorted(score), key=lambda lab: score[lab])
    return out
