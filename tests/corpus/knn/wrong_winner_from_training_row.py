# kata: knn
# why: the winning label read back from a training row (y_train[j]), so the result keeps y_train's dtype
# mistake: label_dtype_kept
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    d = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1)
    near = np.argsort(d, axis=1)[:, :k]
    winners = []
    for row in near:
        labs = y_train[row]
        vals, cnts = np.unique(labs, return_counts=True)
        winner = vals[np.argmax(cnts)]
        winners.append(row[np.flatnonzero(labs == winner)[0]])
    return y_train[np.array(winners, dtype=np.intp)]
