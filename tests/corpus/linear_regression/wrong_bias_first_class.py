# kata: linear-regression
# why: a trainer object that steps the bias first and then the weights with the new bias
# mistake: sequential_update
import numpy as np


class GD:
    def __init__(self, X, y, l2, lr):
        self.X, self.y, self.l2, self.lr = X, y, l2, lr
        self.w = np.zeros(X.shape[1], dtype=X.dtype)
        self.b = 0.0

    def residual(self):
        return self.X @ self.w + self.b - self.y

    def step(self):
        self.b -= self.lr * self.residual().mean()
        self.w = self.w - self.lr * (self.X.T @ self.residual() / len(self.y) + self.l2 * self.w)


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    if method == "gd":
        opt = GD(X, y, l2, lr)
        for _ in range(n_iters):
            opt.step()
        return opt.w, float(opt.b)
    if method == "closed_form":
        N, D = X.shape
        a, c = X.mean(0), y.mean()
        w = np.linalg.solve((X - a).T @ (X - a) + N * l2 * np.eye(D), (X - a).T @ (y - c))
        return w.astype(X.dtype), float(c - a @ w)
    raise ValueError(method)
