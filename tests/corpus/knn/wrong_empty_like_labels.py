# kata: knn
# why: the result allocated with y_train's dtype, so int8/int32 labels come back as int8/int32
# mistake: label_dtype_kept
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    pred = np.empty(X_test.shape[0], dtype=y_train.dtype)
    for t in range(X_test.shape[0]):
        d2 = ((X_train - X_test[t]) ** 2).sum(1)
        lab = y_train[np.argsort(d2)[:k]]
        u, c = np.unique(lab, return_counts=True)
        pred[t] = u[c.argmax()]
    return pred
