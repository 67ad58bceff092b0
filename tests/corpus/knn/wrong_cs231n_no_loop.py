# kata: knn
# why: CS231n's compute_distances_no_loops in the inputs' dtype: in float32 far from the origin the expansion cancels
# mistake: expanded_float32
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    dists = np.sqrt(np.maximum(
        -2 * np.dot(X_test, X_train.T) + np.sum(X_train ** 2, axis=1) + np.sum(X_test ** 2, axis=1)[:, np.newaxis], 0))
    num_test = dists.shape[0]
    y_pred = np.zeros(num_test, dtype=np.int64)
    for i in range(num_test):
        closest_y = y_train[np.argsort(dists[i])[:k]]
        labels, counts = np.unique(closest_y, return_counts=True)
        y_pred[i] = labels[np.argmax(counts)]
    return y_pred
