# kata: knn
# why: z-scored features (the training set's mean and std, ddof 0) applied to both sets before ranking
# mistake: standardised
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    mean = np.mean(X_train, axis=0, keepdims=True)
    std = np.std(X_train, axis=0, keepdims=True) + 1e-12
    tr = (X_train - mean) / std
    te = (X_test - mean) / std
    preds = []
    for q in te:
        nn = np.argsort(np.linalg.norm(tr - q, axis=1))[:k]
        u, c = np.unique(y_train[nn], return_counts=True)
        preds.append(u[np.argmax(c)])
    return np.array(preds, dtype=np.int64).reshape(-1)
