# kata: linear-regression
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    raise NotImplementedError("write linear_regression")
