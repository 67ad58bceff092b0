# kata: knn
# why: two mistakes at once: Counter.most_common's tie rule and k + 1 neighbours
# mistake: none
from collections import Counter

import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    out = []
    for q in X_test:
        d = ((X_train - q) ** 2).sum(1)
        out.append(Counter(y_train[np.argsort(d)[:k + 1]].tolist()).most_common(1)[0][0])
    return np.array(out, dtype=np.int64)
