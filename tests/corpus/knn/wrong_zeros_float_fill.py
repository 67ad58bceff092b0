# kata: knn
# why: the predictions filled into np.zeros(len(X_test)), whose dtype is float64
# mistake: labels_float
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    y_hat = np.zeros(len(X_test))
    for n in range(len(X_test)):
        d = np.sum((X_train - X_test[n]) ** 2, axis=1)
        u, c = np.unique(y_train[np.argsort(d)[:k]], return_counts=True)
        y_hat[n] = u[np.argmax(c)]
    return y_hat
