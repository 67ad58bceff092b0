# kata: knn
# why: both point sets centred on the training mean with -= before the search: the distances are right, the caller's arrays are changed
# mistake: input_centred_in_place
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    centre = X_train.mean(axis=0)
    X_train -= centre
    X_test -= centre
    labels = np.empty(len(X_test), dtype=np.int64)
    for i, q in enumerate(X_test):
        d = ((X_train - q) ** 2).sum(axis=1)
        nn = y_train[np.argsort(d)[:k]]
        vals, cnts = np.unique(nn, return_counts=True)
        labels[i] = vals[np.argmax(cnts)]
    return labels
