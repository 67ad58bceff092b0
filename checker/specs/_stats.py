"""Statistical comparisons: whether draws follow a distribution (Pearson's χ² goodness of fit), and
whether two sets of draws come from one distribution (χ² test of homogeneity).

Used by katas whose right answers are random (sample-token): the checker cannot compare draws with
draws, so it tests the learner's draws against the exact float64 distribution and fails a row only
when p < ALPHA. A right sampler then fails one row test with probability ≤ ALPHA; the case seeds are
fixed, so a check that passed once passes again.

Pooling (KATAS-inference.md, "Comparison rules"): the χ² statistic is only χ²-distributed when
every cell expects a few draws. Bins expecting fewer than MIN_EXPECTED draws are pooled into one
cell; if that pool still expects fewer than MIN_EXPECTED it is merged into the smallest cell that
expects at least MIN_EXPECTED (a pool expecting 0.01 would make one legitimate draw look like
p < 1e-6). A row left with a single cell cannot be tested and passes, unless it drew a token of
probability 0, which fails outright whatever the statistic.

The p-value is the χ² survival function, the regularised upper incomplete gamma function
Q(df/2, x/2) (`torch.special.gammaincc`): no scipy. NumPy does the counting; everything is float64.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

ALPHA = 1e-6  # a row fails when p < ALPHA
MIN_EXPECTED = 5.0  # a cell expecting fewer draws is pooled


@dataclass(frozen=True)
class RowTest:
    """One row's test: its statistic, degrees of freedom, p-value, and the draws of probability 0."""

    statistic: float
    df: int
    p: float
    impossible: int  # draws of tokens whose probability is 0
    impossible_token: int | None  # the first such token

    @property
    def passed(self) -> bool:
        return self.impossible == 0 and self.p >= ALPHA


def chi2_sf(statistic: float, df: int) -> float:
    """P(χ²_df ≥ statistic): the regularised upper incomplete gamma Q(df/2, statistic/2)."""
    if df <= 0:
        return 1.0
    if statistic <= 0.0:
        return 1.0
    a = torch.tensor(df / 2.0, dtype=torch.float64)
    x = torch.tensor(statistic / 2.0, dtype=torch.float64)
    return float(torch.special.gammaincc(a, x))


def cells(expected: np.ndarray) -> list[np.ndarray]:
    """The pooling rule: a list of cells, each an array of bin indices, from the expected counts of the
    bins that may be drawn (expected > 0)."""
    bins = np.flatnonzero(expected > 0)
    big = [np.array([j]) for j in bins if expected[j] >= MIN_EXPECTED]
    small = np.array([j for j in bins if expected[j] < MIN_EXPECTED], dtype=np.int64)
    if small.size == 0:
        return big
    if expected[small].sum() >= MIN_EXPECTED or not big:
        return big + [small]
    smallest = int(np.argmin([expected[c].sum() for c in big]))  # the pool joins the smallest big cell
    big[smallest] = np.concatenate([big[smallest], small])
    return big


def goodness_of_fit(counts: np.ndarray, probs: np.ndarray) -> RowTest:
    """Pearson's χ² of observed `counts` (V,) against the exact `probs` (V,), with the pooling rule."""
    counts = np.asarray(counts, dtype=np.float64)
    probs = np.asarray(probs, dtype=np.float64)
    n = counts.sum()
    zero = probs <= 0
    impossible = int(counts[zero].sum())
    first = int(np.flatnonzero(zero & (counts > 0))[0]) if impossible else None
    expected = n * np.where(zero, 0.0, probs / probs[~zero].sum())
    groups = cells(expected)
    if len(groups) <= 1:
        return RowTest(0.0, 0, 1.0, impossible, first)
    o = np.array([counts[c].sum() for c in groups])
    e = np.array([expected[c].sum() for c in groups])
    statistic = float(((o - e) ** 2 / e).sum())
    df = len(groups) - 1
    return RowTest(statistic, df, chi2_sf(statistic, df), impossible, first)


def homogeneity(a: np.ndarray, b: np.ndarray) -> RowTest:
    """χ² test that two count vectors (V,) come from one distribution (a 2 × V contingency table), with
    the same pooling rule on the smaller sample's expected counts."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    na, nb = a.sum(), b.sum()
    if na == 0 or nb == 0:
        return RowTest(0.0, 0, 1.0, 0, None)
    pooled = (a + b) / (na + nb)
    groups = cells(min(na, nb) * pooled)
    if len(groups) <= 1:
        return RowTest(0.0, 0, 1.0, 0, None)
    p = np.array([pooled[c].sum() for c in groups])
    oa = np.array([a[c].sum() for c in groups])
    ob = np.array([b[c].sum() for c in groups])
    statistic = float(((oa - na * p) ** 2 / (na * p)).sum() + ((ob - nb * p) ** 2 / (nb * p)).sum())
    df = len(groups) - 1
    return RowTest(statistic, df, chi2_sf(statistic, df), 0, None)
