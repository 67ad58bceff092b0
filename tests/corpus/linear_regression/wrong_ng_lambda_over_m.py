# kata: linear-regression
# why: gradient descent in Andrew Ng's course notation: the regularisation term (lambda / m) * theta (closed form right)
# mistake: penalty_not_scaled_by_n
import numpy as np


def linear_regression(X, y, method="closed_form", l2=0.0, lr=0.01, n_iters=1000):
    m, n = X.shape
    if method == "gd":
        theta = np.zeros(n, dtype=X.dtype)
        theta0 = 0.0
        lam = l2
        for _ in range(n_iters):
            h = X.dot(theta) + theta0
            grad = (1 / m) * X.T.dot(h - y) + (lam / m) * theta
            grad0 = (1 / m) * np.sum(h - y)
            theta, theta0 = theta - lr * grad, theta0 - lr * grad0
        return theta, float(theta0)
    elif method == "closed_form":
        mu_x, mu_y = X.mean(axis=0), y.mean()
        A = (X - mu_x).T @ (X - mu_x) + m * l2 * np.identity(n)
        theta = np.linalg.solve(A, (X - mu_x).T @ (y - mu_y))
        return theta.astype(X.dtype), float(mu_y - mu_x @ theta)
    raise ValueError("unknown method")
