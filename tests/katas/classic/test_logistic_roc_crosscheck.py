"""The logistic-regression and roc-auc references against code nobody here wrote. Run with -s to see the
largest differences measured (numpy 2.4, torch 2.13 CPU, scikit-learn 1.9.1, scipy 1.17):

- logistic-regression vs torch.optim.SGD(weight_decay=l2 on w only) + BCEWithLogitsLoss, 30 draws (lr up to
  min(1, 1/L), 1-50 steps, l2 0-0.3, float64): max relative error over w, b and the losses 3.3e-16;
- logistic-regression after 3000 steps vs sklearn LogisticRegression(C = 1/(N·l2)) at its optimum, 10 draws:
  max abs error over w and b 1.2e-15 with solver="newton-cg" (both gradients below 1.2e-16 there; the default lbfgs
  stops with gradients up to 1.7e-8 and is 3.8e-8 away);
- logistic-regression on logits of 1e4-1e7 (the checker's huge_logits case) vs torch's BCEWithLogitsLoss at the same
  parameters: every loss finite and equal to 5.7e-16 relative;
- roc-auc vs sklearn.metrics.roc_auc_score, 60 draws (half of them full of exact ties): 1.1e-16;
  vs scipy.stats.mannwhitneyu's U/(n1·n0): 0 (both count in exact halves);
- GAUC vs the impression-weighted mean of sklearn's roc_auc_score over the two-class groups, 30 draws: 1.1e-16.
scikit-learn, scipy and torch are cross-check tools only (the `[crosscheck]` extra), never runtime dependencies.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

from checker.text import catalog
from checker.specs.logistic_regression import smoothness
from checker.judge.worker import load_entry


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_{kata.module}")


def _report(what, err):
    print(f"\n  {what}: {err:.2g}")
    return err


def _data(seed, N, D, scale=1.0):
    rng = np.random.default_rng(seed)
    X = scale * rng.standard_normal((N, D)) + rng.standard_normal(D) * 0.5
    w = rng.standard_normal(D)
    y = (rng.random(N) < 1 / (1 + np.exp(-(X @ w) * 1.5))).astype(np.int64)
    return X, y, rng


# ---------------------------------------------------------------- logistic regression


def _torch_run(X, y, lr, n_iters, l2):
    """torch's own pieces: BCEWithLogitsLoss (mean) for the data term, SGD with weight_decay on w only."""
    Xt, yt = torch.from_numpy(X), torch.from_numpy(y.astype(np.float64))
    w = torch.zeros(X.shape[1], dtype=torch.float64, requires_grad=True)
    b = torch.zeros((), dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([{"params": [w], "weight_decay": l2}, {"params": [b], "weight_decay": 0.0}], lr=lr)
    bce = torch.nn.BCEWithLogitsLoss()
    losses = []
    for _ in range(n_iters):
        opt.zero_grad()
        data = bce(Xt @ w + b, yt)
        losses.append(float(data) + l2 / 2 * float(w.detach() @ w.detach()))
        data.backward()
        opt.step()
    return w.detach().numpy(), float(b), np.array(losses)


def _rel(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b)))) if a.size else 0.0


def test_logistic_regression_matches_torch_sgd_with_weight_decay():
    ours = _reference("logistic-regression")
    worst = 0.0
    for seed in range(30):
        X, y, rng = _data(seed, 5 + seed % 30, 1 + seed % 5)
        l2 = float(rng.choice([0.0, 0.01, 0.1, 0.3]))
        lr = min(1.0, 1 / smoothness(X, l2)) * float(rng.choice([0.1, 0.5, 1.0]))
        n_iters = int(rng.integers(1, 51))
        w, b, losses = ours(X, y, lr, n_iters, l2)
        tw, tb, tl = _torch_run(X, y, lr, n_iters, l2)
        worst = max(worst, _rel(w, tw), _rel(b, tb), _rel(losses, tl))
    assert _report("logistic-regression vs torch SGD(weight_decay) + BCEWithLogitsLoss, max rel", worst) < 1e-12


def test_logistic_regression_converges_to_sklearn_logistic_regression():
    sklearn = pytest.importorskip("sklearn.linear_model", reason="scikit-learn is a cross-check tool, not here")
    ours = _reference("logistic-regression")
    worst = 0.0
    for seed in range(10):
        X, y, rng = _data(100 + seed, 40, 3)
        l2 = float(rng.choice([0.05, 0.1, 0.3]))
        w, b, _ = ours(X, y, 1 / smoothness(X, l2), 3000, l2)
        clf = sklearn.LogisticRegression(C=1 / (X.shape[0] * l2), solver="newton-cg", tol=1e-14, max_iter=10_000)
        clf.fit(X, y)
        worst = max(worst, float(np.abs(w - clf.coef_[0]).max()), abs(b - float(clf.intercept_[0])))
    said = "logistic-regression (3000 steps) vs sklearn LogisticRegression(C=1/(N·l2)), max abs"
    assert _report(said, worst) < 1e-12


def test_logistic_regression_losses_on_huge_logits_match_torch():
    ours = _reference("logistic-regression")
    X = np.array([[1e4, 0], [1e4, 0], [-1e4, 1e4], [0, -1e4], [2e4, 1e4], [-1e4, -2e4], [5e3, 2e4]], dtype=np.float64)
    y = np.array([1, 0, 1, 0, 1, 0, 1])
    w, b, losses = ours(X, y, 0.1, 6, 0.0)
    tw, tb, tl = _torch_run(X, y, 0.1, 6, 0.0)
    assert np.isfinite(losses).all() and losses[1:].min() > 1e4
    assert _report("logistic-regression losses on logits of 1e4-1e7 vs torch, max rel", _rel(losses, tl)) < 1e-12


# ---------------------------------------------------------------- roc-auc


def _auc_draw(seed):
    rng = np.random.default_rng(seed)
    N = int(rng.integers(2, 300))
    y = (rng.random(N) < rng.choice([0.1, 0.4, 0.7])).astype(np.int64)
    y[:2] = [1, 0]
    s = rng.standard_normal(N) + y
    if seed % 2:
        s = np.floor(s * 2) / 2  # exact ties on halves
    return y, s


def test_roc_auc_matches_sklearn_and_mann_whitney():
    metrics = pytest.importorskip("sklearn.metrics", reason="scikit-learn is a cross-check tool, not installed here")
    stats = pytest.importorskip("scipy.stats", reason="scipy is a cross-check tool, not installed here")
    ours = _reference("roc-auc")
    vs_sklearn = vs_scipy = 0.0
    for seed in range(60):
        y, s = _auc_draw(seed)
        auc = ours(y, s)
        vs_sklearn = max(vs_sklearn, abs(auc - float(metrics.roc_auc_score(y, s))))
        n1, n0 = int(y.sum()), int((1 - y).sum())
        u = stats.mannwhitneyu(s[y == 1], s[y == 0], alternative="two-sided").statistic
        vs_scipy = max(vs_scipy, abs(auc - float(u) / (n1 * n0)))
    assert _report("roc-auc vs sklearn roc_auc_score (60 draws, half tied), max abs", vs_sklearn) < 1e-12
    assert _report("roc-auc vs scipy mannwhitneyu U/(n1·n0), max abs", vs_scipy) < 1e-12


def test_roc_auc_raises_where_sklearn_cannot_score():
    ours = _reference("roc-auc")
    with pytest.raises(ValueError):
        ours(np.ones(5, dtype=np.int64), np.arange(5.0))
    with pytest.raises(ValueError):
        ours(np.array([1, 1, 0, 0]), np.arange(4.0), groups=np.array([1, 1, 2, 2]))


def test_gauc_is_the_impression_weighted_mean_of_sklearn_aucs():
    metrics = pytest.importorskip("sklearn.metrics", reason="scikit-learn is a cross-check tool, not installed here")
    ours = _reference("roc-auc")
    worst = 0.0
    for seed in range(30):
        rng = np.random.default_rng(1000 + seed)
        N = int(rng.integers(20, 200))
        y, s = _auc_draw(seed)
        y, s = np.resize(y, N), np.resize(s, N)
        groups = rng.choice(np.array(["a", "b", "c", "d", "e"]) if seed % 2 else np.arange(7), N)
        total = weight = 0.0
        for g in np.unique(groups):
            m = groups == g
            if 0 < y[m].sum() < m.sum():
                total += m.sum() * metrics.roc_auc_score(y[m], s[m])
                weight += m.sum()
        if weight == 0:
            continue
        worst = max(worst, abs(ours(y, s, groups) - total / weight))
    assert _report("GAUC vs impression-weighted sklearn roc_auc_score, max abs", worst) < 1e-12
