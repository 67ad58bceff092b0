# kata: knn
# why: (distance, label) pairs sorted with sorted(), the first k counted by Counter: most_common keeps the label met first on equal counts
# mistake: vote_tie_nearest
import math
from collections import Counter

import numpy as np


def _euclid(a, b):
    return math.sqrt(sum((float(u) - float(v)) ** 2 for u, v in zip(a, b)))


def knn_predict(X_train, y_train, X_test, k=5):
    answers = []
    for q in X_test:
        pairs = sorted((_euclid(q, x), int(lab)) for x, lab in zip(X_train, y_train))
        top = Counter(lab for _, lab in pairs[:k])
        answers.append(top.most_common(1)[0][0])
    return np.array(answers, dtype=np.int64)
