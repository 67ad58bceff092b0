"""Case families for `rloo-loss`: k in {1, 2, 3, 4, 5, 8} with several prompts (a strided grouping fails),
one prompt (k = N), k = 1 (zeros, no NaN), mask None / bool / float, a completion with no valid token,
equal rewards in a group, binary rewards, T = 1, float64.

Compared: the loss, the advantages, whether the advantages carry a gradient (they must not), and the
gradient of the loss w.r.t. log_probs. Masked positions hold large garbage log-probs: a sum over them shows.
"""
from __future__ import annotations

import sys

import torch

from checker.judge.compare import compare_outcome
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._align import (  # noqa: F401 — TOLERANCES and tolerance_for are the spec's hooks
    REQUIRES_GRAD, TOLERANCES, as_kind, explain_leak, leak_grid, lengths_mask, tolerance_for,
)
from checker.judge import spec as spec_api
from checker.specs._rl import pick, randint

_OMIT = object()


def _draw(g: torch.Generator, P: int, k: int, T: int, *, mask: object = "bool", lengths: object = "random",
          rewards: str = "normal", dtype=torch.float32) -> Inputs:
    N = P * k
    logp = -(0.1 + 3.0 * torch.rand(N, T, generator=g, dtype=torch.float64))
    if rewards == "binary":
        r = (torch.rand(N, generator=g) < 0.5).double()
    elif rewards == "equal_group":
        r = torch.randn(P, generator=g, dtype=torch.float64).repeat_interleave(k)
        r[:k] = r[:k] + torch.randn(k, generator=g, dtype=torch.float64)  # only the first prompt's rewards differ
    else:
        r = torch.randn(N, generator=g, dtype=torch.float64)
    args = {"log_probs": None, "rewards": r.to(dtype), "k": k}
    if mask is not None and mask is not _OMIT:
        valid = lengths_mask(g, N, T, lengths)
        garbage = (20 + 80 * torch.rand(N, T, generator=g, dtype=torch.float64)) * torch.where(
            torch.rand(N, T, generator=g) < 0.5, -1.0, 1.0).double()
        logp = torch.where(valid, logp, garbage)
        args["mask"] = as_kind(valid, mask, dtype)
    elif mask is None:
        args["mask"] = None
    args["log_probs"] = logp.to(dtype)
    return Inputs(args=args, grad_of=("log_probs",))


def _case(P, k, T, **kw):
    return lambda g: _draw(g, P, k, T, **kw)


def _random(g: torch.Generator) -> Inputs:
    k = pick(g, [1, 2, 2, 3, 4, 4, 5, 8])
    return _draw(g, randint(g, 1, 4), k, randint(g, 1, 10), mask=pick(g, [None, _OMIT, "bool", "bool", "float"]),
                 lengths=pick(g, ["random", "random0"]), rewards=pick(g, ["normal", "normal", "binary"]),
                 dtype=pick(g, [torch.float32, torch.float32, torch.float64]))


FAMILIES = (
    *(Family(f"k{k}_three_prompts", _case(3, k, 6)) for k in (2, 3, 4, 5, 8)),
    Family("k1_zero_advantages", _case(4, 1, 6)),
    Family("one_prompt", _case(1, 6, 5)),
    Family("k_equals_two_one_prompt", _case(1, 2, 5)),
    Family("mask_none", _case(2, 4, 6, mask=None)),
    Family("mask_omitted", _case(2, 4, 6, mask=_OMIT)),
    Family("float_mask", _case(2, 4, 6, mask="float")),
    Family("empty_completion", _case(2, 3, 5, lengths=(5, 0, 3, 2, 5, 1))),
    Family("equal_rewards_in_group", _case(3, 4, 5, rewards="equal_group")),
    Family("binary_rewards", _case(3, 4, 6, rewards="binary")),
    Family("one_token", _case(2, 3, 1, mask=None)),
    Family("long_and_short", _case(2, 2, 40, lengths=(40, 1, 7, 33))),
    Family("float64", _case(2, 4, 6, dtype=torch.float64)),
    Family("float64_k1", _case(3, 1, 4, dtype=torch.float64)),
    Family("random", _random, draws=84),
    Family("device", _case(2, 3, 5), track_device=True),
    Family("device_no_mask", _case(2, 3, 5, mask=_OMIT), track_device=True),
)


def call(kata, entry, inputs, device, track_device=False):
    """The default protocol, plus whether the advantages carry a gradient (they must not)."""
    outcome = spec_api.call(kata, entry, inputs, device, track_device)
    value = outcome.value
    if isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[1], torch.Tensor):
        outcome.extras[REQUIRES_GRAD.format(name="advantages")] = bool(value[1].requires_grad)
    return outcome


def compare(kata, case, expected, got):
    """The generic comparison, with the mask grid under a gradient that reaches padding."""
    problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    grad = got.extras.get("grad of log_probs")
    mask = case.inputs.args.get("mask")
    if problems and mask is not None and getattr(grad, "data", None) is not None and grad.data.shape == mask.shape:
        problems = explain_leak(problems, "grad of log_probs", leak_grid(mask, grad.data))
    return problems


# ---------------------------------------------------------------- known mistakes


def _rloo(logp, rewards, k, mask, *, baseline="loo", layout="consecutive", std=False, k1="zeros", seq="sum",
          use_mask=True, sign=1.0, reduce="mean", std_eps=1e-8, surrogate=None):
    """baseline: "loo" (leave one out), "mean" (GRPO's group mean, self included), "batch" (leave one out over
    the whole batch); layout "strided" groups rows i, i + P, …; k1 "divide" divides by k - 1 = 0, "raw" takes the
    reward itself as the advantage; seq "mean" averages each completion's log-probs over its tokens; reduce "sum"
    drops the 1/N, "nonempty" divides by the completions with a valid token; std_eps: GRPO's 1e-8, TRL's 1e-4;
    surrogate: the PPO ratio exp(lp - lp.detach()) in place of the log-prob, per "sequence" or per "token" (TRL's
    RLOO loss at its first step: the gradient is REINFORCE's, the value is not)."""
    N = rewards.shape[0]
    r = rewards.detach()
    g = r.view(-1, k) if layout == "consecutive" else r.view(k, -1).T  # (P, k)
    if baseline == "batch":
        g = r.view(1, -1)
    kk = g.shape[1]
    if baseline == "mean":
        A = g - g.mean(dim=1, keepdim=True)
    elif kk == 1 and k1 == "zeros":
        A = torch.zeros_like(g)
    elif kk == 1 and k1 == "raw":
        A = g.clone()
    else:
        A = g - (g.sum(dim=1, keepdim=True) - g) / (kk - 1)
    if std and kk > 1:
        A = A / (g.std(dim=1, keepdim=True) + std_eps)
    A = A.reshape(N) if layout == "consecutive" or baseline == "batch" else A.T.reshape(N)
    m = torch.ones_like(logp) if (mask is None or not use_mask) else mask.to(logp.dtype)
    seq_lp = (logp * m).sum(-1)
    if seq == "mean":
        seq_lp = seq_lp / m.sum(-1).clamp(min=1)
    if surrogate == "sequence":
        seq_lp = torch.exp(seq_lp - seq_lp.detach())
    elif surrogate == "token":
        seq_lp = (torch.exp(logp - logp.detach()) * m).sum(-1)
    total = -sign * (A.to(logp.dtype) * seq_lp)
    if reduce == "nonempty":
        present = (m.sum(-1) > 0).to(logp.dtype)
        return (total * present).sum() / present.sum().clamp(min=1), A
    return (total.sum() if reduce == "sum" else total.mean()), A


def _variant(**switches):
    def rloo_loss(log_probs, rewards, k, mask=None):
        return _rloo(log_probs, rewards, k, mask, **switches)
    return rloo_loss


MISTAKES = (
    Mistake("grpo_mean_baseline", _variant(baseline="mean")),
    Mistake("strided_groups", _variant(layout="strided")),
    Mistake("std_normalised", _variant(std=True)),
    Mistake("std_normalised", _variant(std=True, std_eps=1e-4)),
    Mistake("k1_divides_by_zero", _variant(k1="divide")),
    Mistake("k1_raw_reward", _variant(k1="raw")),
    Mistake("ppo_surrogate_value", _variant(surrogate="sequence")),
    Mistake("ppo_surrogate_value", _variant(surrogate="token")),
    Mistake("mean_over_nonempty", _variant(reduce="nonempty")),
    Mistake("baseline_over_batch", _variant(baseline="batch")),
    Mistake("token_mean_log_prob", _variant(seq="mean")),
    Mistake("mask_ignored", _variant(use_mask=False)),
    Mistake("sign_flipped", _variant(sign=-1.0)),
    Mistake("sum_not_mean", _variant(reduce="sum")),
)


def _bench(g: torch.Generator) -> Inputs:
    N, T = 256, 1024
    mask = torch.arange(T)[None, :] < torch.randint(1, T + 1, (N,), generator=g)[:, None]
    return Inputs(args={"log_probs": -torch.rand(N, T, generator=g) * 3, "rewards": torch.randn(N, generator=g), "k": 8,
                        "mask": mask}, grad_of=("log_probs",))


# `kata check rloo-loss --bench`: 32 prompts × 8 completions of up to 1024 tokens, forward and backward.
BENCH = ("N = 256 (k = 8), T = 1024", _bench)
