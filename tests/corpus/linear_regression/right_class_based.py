# kata: linear-regression
# why: right: a small estimator class with fit(); centred normal equations with scipy.linalg.solve(assume_a="pos")
import numpy as np
import scipy.linalg


class Ridge:
    def __init__(self, l2):
        self.l2 = l2

    def fit_exact(self, X, y):
        n = len(X)
        self.x_mean_, self.y_mean_ = X.mean(axis=0), y.mean()
        Xc, yc = X - self.x_mean_, y - self.y_mean_
        G = Xc.T @ Xc
        G[np.diag_indices_from(G)] += n * self.l2
        self.coef_ = scipy.linalg.solve(G, Xc.T @ yc, assume_a="pos")
        self.intercept_ = self.y_mean_ - self.x_mean_ @ self.coef_
        return self

    def fit_gd(self, X, y, lr, steps):
        n, d = X.shape
        self.coef_, self.intercept_ = np.zeros(d, X.dtype), X.dtype.type(0)
        for _ in range(steps):
            resid = self.predict(X) - y
            g_coef = X.T.dot(resid) / n + self.l2 * self.coef_
            g_int = resid.sum() / n
            self.coef_ = self.coef_ - lr * g_coef
            self.intercept_ = self.intercept_ - lr * g_int
        return self

    def predict(self, X):
        return X @ self.coef_ + self.intercept_


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    if method == "closed_form":
        model = Ridge(l2).fit_exact(X, y)
    elif method == "gd":
        model = Ridge(l2).fit_gd(X, y, lr, n_iters)
    else:
        raise ValueError(f"method={method!r} is not supported")
    return model.coef_.astype(X.dtype), float(model.intercept_)
