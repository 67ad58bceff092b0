# kata: knn
# why: a loop that collects the neighbours with range(k + 1): one neighbour too many
# mistake: k_plus_one
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    preds = np.zeros(X_test.shape[0], dtype=np.int64)
    for qi in range(X_test.shape[0]):
        dist = np.sqrt(((X_train - X_test[qi]) ** 2).sum(axis=1))
        ranking = np.argsort(dist)
        votes = {}
        for r in range(min(k + 1, len(ranking))):
            lab = int(y_train[ranking[r]])
            votes[lab] = votes.get(lab, 0) + 1
        best = max(votes.values())
        preds[qi] = min(l for l, c in votes.items() if c == best)
    return preds
