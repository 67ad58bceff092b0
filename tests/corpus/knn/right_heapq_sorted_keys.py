# kata: knn
# why: heapq.nsmallest over (squared distance, index), then max over the labels in ascending order (max keeps the first of equal counts)
import heapq

import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    labels = [int(v) for v in y_train]
    answer = np.empty(len(X_test), dtype=np.int64)
    for qi, q in enumerate(X_test):
        diffs = X_train.astype(np.float64) - q.astype(np.float64)
        d = (diffs * diffs).sum(axis=1)
        chosen = heapq.nsmallest(k, range(len(labels)), key=lambda j: d[j])
        picked = [labels[j] for j in chosen]
        answer[qi] = max(sorted(set(picked)), key=picked.count)
    return answer
