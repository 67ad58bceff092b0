"""The linear-regression reference against code nobody here wrote. Run with -s to see the largest differences
measured (numpy 2.4, torch 2.13 CPU, scikit-learn 1.9.1):

- closed form at l2 = 0 vs sklearn LinearRegression(), 40 float64 draws (N 3-60, D 1-6, features up to 100 from
  the origin, intercepts up to 1000): max relative error over w and b (÷ max(1, |·|)) 2.8e-14;
- closed form at l2 > 0 vs sklearn Ridge(alpha = N·l2, solver="cholesky"), 40 draws (N 1-60, fewer points than
  features in some, l2 0.001-10): 5.3e-15 relative; Ridge(alpha=l2), scikit-learn's own scaling, is up to 0.89 off
  on the same draws (the "penalty not scaled by N" mistake);
- gradient descent vs torch.optim.SGD's update (torch.optim.sgd.sgd, weight_decay=l2 on w only) on 0.5·mse_loss, 30 float64 draws (lr up to
  1/L, 1-59 steps, l2 0-1, offsets up to 100): 1.2e-14 relative.
scikit-learn and torch are cross-check tools only (the `[crosscheck]` extra), never runtime dependencies.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.optim.sgd import sgd

from checker.judge.worker import load_entry
from checker.specs.linear_regression import smoothness
from checker.text import catalog

KATA = catalog.get("linear-regression")


def _reference():
    return load_entry(KATA.reference_path, KATA.entry, "crosscheck_linear_regression")


def _data(seed, N, D):
    rng = np.random.default_rng(seed)
    offset = rng.choice([0.0, 3.0, 100.0])
    X = rng.standard_normal((N, D)) + offset * rng.standard_normal(D)
    y = X @ rng.standard_normal(D) + rng.choice([0.0, 5.0, 1000.0]) + 0.3 * rng.standard_normal(N)
    return X, y, rng


def _rel(a, b):
    a, b = np.atleast_1d(np.asarray(a, dtype=np.float64)), np.atleast_1d(np.asarray(b, dtype=np.float64))
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))))


def _report(what, err):
    print(f"\n  {what}: {err:.2g}")
    return err


def test_closed_form_matches_sklearn_linear_regression():
    linear_model = pytest.importorskip("sklearn.linear_model")
    ours = _reference()
    worst = 0.0
    for seed in range(40):
        D = 1 + seed % 6
        X, y, _ = _data(seed, D + 2 + seed % 50, D)
        w, b = ours(X, y)
        model = linear_model.LinearRegression().fit(X, y)
        worst = max(worst, _rel(w, model.coef_), _rel(b, model.intercept_))
    assert _report("closed form vs LinearRegression", worst) < 1e-9


def test_closed_form_matches_sklearn_ridge_with_alpha_n_l2():
    linear_model = pytest.importorskip("sklearn.linear_model")
    ours = _reference()
    worst, unscaled = 0.0, 0.0
    for seed in range(40):
        D = 1 + seed % 6
        X, y, rng = _data(100 + seed, 1 + seed % 60, D)
        l2 = float(rng.choice([0.001, 0.1, 1.0, 10.0]))
        w, b = ours(X, y, "closed_form", l2)
        model = linear_model.Ridge(alpha=len(X) * l2, solver="cholesky").fit(X, y)
        worst = max(worst, _rel(w, model.coef_), _rel(b, model.intercept_))
        plain = linear_model.Ridge(alpha=l2, solver="cholesky").fit(X, y)
        unscaled = max(unscaled, _rel(w, plain.coef_))
    assert _report("closed form vs Ridge(alpha=N*l2)", worst) < 1e-9
    assert _report("Ridge(alpha=l2) off by", unscaled) > 1e-2  # the scaling the contract rules out is visible


def _torch_sgd(X, y, l2, lr, n_iters):
    """torch's own pieces: autograd through 0.5 * mse_loss, then the update torch.optim.SGD.step applies
    (`torch.optim.sgd.sgd`, called as SGD calls it) with weight_decay on w only. The functional form keeps the
    SGD class's first-use import of torch._dynamo (seconds) out of the suite."""
    Xt, yt = torch.from_numpy(X), torch.from_numpy(y)
    w = torch.zeros(X.shape[1], dtype=torch.float64, requires_grad=True)
    b = torch.zeros((), dtype=torch.float64, requires_grad=True)
    for _ in range(n_iters):
        w.grad = b.grad = None
        (0.5 * torch.nn.functional.mse_loss(Xt @ w + b, yt)).backward()
        with torch.no_grad():
            for param, decay in ((w, l2), (b, 0.0)):
                sgd([param], [param.grad], [None], weight_decay=decay, momentum=0.0, lr=lr, dampening=0.0,
                    nesterov=False, maximize=False, foreach=False)
    return w.detach().numpy(), float(b.detach())


def test_gradient_descent_matches_torch_sgd_with_weight_decay():
    ours = _reference()
    worst = 0.0
    for seed in range(30):
        D = 1 + seed % 5
        X, y, rng = _data(200 + seed, 1 + seed % 40, D)
        X = X - X.mean(0) * (seed % 2)  # half the draws centred: a larger 1/L
        l2 = float(rng.choice([0.0, 0.01, 0.1, 1.0]))
        lr = float(rng.choice([0.3, 1.0])) / smoothness(X, l2)
        n_iters = 1 + 2 * (seed % 30)
        w, b = ours(X, y, "gd", l2, lr, n_iters)
        tw, tb = _torch_sgd(X, y, l2, lr, n_iters)
        worst = max(worst, _rel(w, tw), _rel(b, tb))
    assert _report("gd vs torch SGD(weight_decay) on 0.5*mse_loss", worst) < 1e-12
