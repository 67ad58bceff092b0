# kata: knn
# why: votes in a dict, the winner picked by max over (count, label): an equal count goes to the larger label
# mistake: vote_tie_largest
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    result = np.empty(X_test.shape[0], dtype=np.int64)
    sq = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1)
    for row in range(sq.shape[0]):
        ballot = {}
        for j in np.argsort(sq[row], kind="stable")[:k]:
            ballot[int(y_train[j])] = ballot.get(int(y_train[j]), 0) + 1
        result[row] = max(ballot.items(), key=lambda item: (item[1], item[0]))[0]
    return result
