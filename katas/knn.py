# kata: knn
import numpy as np


def knn_predict(X_train, y_train, X_test, k=5):
    raise NotImplementedError("write knn_predict")
