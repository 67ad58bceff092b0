# kata: knn
# why: votes by np.bincount on the raw labels, which raises on negative labels
# mistake: bincount_negative
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1)
    nearest = np.argsort(d, axis=1)[:, :k]
    size = int(y_train.max()) + 1 if len(y_train) else 1
    preds = [np.bincount(y_train[row], minlength=size).argmax() for row in nearest]
    return np.array(preds, dtype=np.int64).reshape(-1)
