# kata: knn
# why: scipy's cdist with metric="sqeuclidean", ranking with np.lexsort (distance, then index), ties by sorting (-count, label)
import numpy as np
from scipy.spatial.distance import cdist


def knn_predict(X_train, y_train, X_test, k=5):
    D = cdist(X_test, X_train, metric="sqeuclidean")
    preds = np.empty(D.shape[0], dtype=np.int64)
    for r in range(D.shape[0]):
        order = np.lexsort((np.arange(D.shape[1]), D[r]))
        counts = {}
        for lab in y_train[order[:k]].tolist():
            counts[lab] = counts.get(lab, 0) + 1
        preds[r] = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return preds
