"""Case families for `grpo-advantage`: single and batched groups, scales, ties and binary rewards."""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint, uniform


def _scaled(g: torch.Generator, shape: tuple[int, ...], dtype=torch.float32) -> torch.Tensor:
    """Rewards whose groups (last dim) each have their own offset and scale, 1e-2 to 1e3 apart."""
    lead = shape[:-1]
    scale = 10 ** (torch.rand((*lead, 1), generator=g, dtype=torch.float64) * 5 - 2)
    offset = torch.randn((*lead, 1), generator=g, dtype=torch.float64) * scale * 3
    r = offset + scale * torch.randn(shape, generator=g, dtype=torch.float64)
    return r.to(dtype)


def _inputs(r: torch.Tensor) -> Inputs:
    return Inputs(args={"rewards": r}, show={"G": r.shape[-1]}, tol=_tol(r))


def _tol(r: torch.Tensor) -> tuple[float, float] | None:
    """In float32, r - mean is only known to about eps * |r|: a group whose spread is small next to
    its size (two close rewards far from 0) amplifies that by |r| / std in any correct order of
    operations. Widen the table's 1e-4 to 4 * eps * that ratio where it is larger."""
    if r.dtype != torch.float32:
        return None
    r64 = r.double()
    std = r64.std(dim=-1, keepdim=True)
    ratio = (r64.abs().amax(dim=-1, keepdim=True) / std)[std > 0]
    worst = float(ratio.max()) if ratio.numel() else 0.0
    tol = 4 * torch.finfo(torch.float32).eps * worst
    return (tol, tol) if tol > 1e-4 else None


def _case(shape, kind="normal", *, dtype=torch.float32):
    def make(g: torch.Generator) -> Inputs:
        if kind == "normal":
            r = torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)
        elif kind == "scaled":
            r = _scaled(g, shape, dtype)
        elif kind == "binary":
            r = (torch.rand(shape, generator=g) < 0.5).to(dtype)
            if len(shape) > 1 and shape[-2] > 1:
                r[..., 0, :] = 1.0  # a group where every completion is right
                r[..., 1, :] = 0.0  # and one where every completion is wrong
        elif kind == "equal":  # exact small values, so the group mean is exact and r - mean is 0
            r = torch.randint(-2, 3, (*shape[:-1], 1), generator=g).to(dtype).expand(shape).clone()
        elif kind == "one_equal":
            r = _scaled(g, shape, dtype)
            r[..., 0, :] = 0.5
        elif kind == "zeros":
            r = torch.zeros(shape, dtype=dtype)
        elif kind == "tiny":  # spreads of 1e-7 to 1e-5 around 0: the 1e-8 beside the std shows
            scale = 10 ** (torch.rand((*shape[:-1], 1), generator=g, dtype=torch.float64) * 2 - 7)
            r = (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)
        else:
            raise ValueError(kind)
        return _inputs(r)
    return make


def _random(g: torch.Generator) -> Inputs:
    rank = pick(g, [1, 2, 2, 2, 3])
    G = randint(g, 2, 16)
    shape = (*[randint(g, 1, 5) for _ in range(rank - 1)], G)
    kind = pick(g, ["scaled", "scaled", "normal", "binary_random"])
    if kind == "binary_random":
        r = (torch.rand(shape, generator=g) < uniform(g, 0.2, 0.8)).float()
    else:
        r = _case(shape, kind)(g).args["rewards"]
    return _inputs(r)


FAMILIES = (
    Family("single_group", _case((8,))),
    Family("two_completions", _case((2,))),
    Family("two_completions_batched", _case((5, 2), "scaled")),
    Family("binary_rewards", _case((6, 8), "binary")),
    Family("binary_single_group", _case((8,), "binary")),
    Family("equal_rewards", _case((8,), "equal")),
    Family("all_zero_rewards", _case((4, 6), "zeros")),
    Family("equal_group_in_batch", _case((5, 6), "one_equal")),
    Family("batched_scales", _case((6, 8), "scaled"), draws=3),
    Family("square_batch", _case((6, 6), "scaled")),
    Family("three_d", _case((2, 3, 8), "scaled"), draws=2),
    Family("four_d", _case((2, 2, 3, 4), "scaled")),
    Family("three_d_equal", _case((2, 3, 4), "equal")),
    Family("large_group", _case((64,))),
    Family("tiny_spread", _case((4, 8), "tiny")),
    Family("tiny_spread_float64", _case((4, 8), "tiny", dtype=torch.float64)),
    Family("float64", _case((4, 8), "scaled", dtype=torch.float64)),
    Family("random", _random, draws=82),
    Family("device", _case((4, 6), "one_equal"), track_device=True),
)


# ---------------------------------------------------------------- known mistakes


def _global_stats(rewards):
    a = rewards - rewards.mean()
    return (a - a.mean()) / (a.std() + 1e-8)


def _biased_std(rewards):
    return (rewards - rewards.mean(-1, keepdim=True)) / (rewards.std(-1, keepdim=True, unbiased=False) + 1e-8)


def _no_epsilon(rewards):
    return (rewards - rewards.mean(-1, keepdim=True)) / rewards.std(-1, keepdim=True)


def _first_dim(rewards):
    return (rewards - rewards.mean(0, keepdim=True)) / (rewards.std(0, keepdim=True) + 1e-8)


def _centred_only(rewards):
    return rewards - rewards.mean(-1, keepdim=True)


def _epsilon(eps: float):
    def compute_group_advantages(rewards):
        return (rewards - rewards.mean(-1, keepdim=True)) / (rewards.std(-1, keepdim=True) + eps)
    return compute_group_advantages


def _epsilon_in_sqrt(rewards):
    return (rewards - rewards.mean(-1, keepdim=True)) / torch.sqrt(rewards.var(-1, keepdim=True) + 1e-8)


def _no_keepdim(rewards):
    return (rewards - rewards.mean(dim=-1)) / (rewards.std(dim=-1) + 1e-8)


MISTAKES = (
    Mistake("global_stats", _global_stats),
    Mistake("biased_std", _biased_std),
    Mistake("no_epsilon", _no_epsilon),
    Mistake("first_dim", _first_dim),
    Mistake("not_divided_by_std", _centred_only),
    Mistake("epsilon_1e9", _epsilon(1e-9)),
    Mistake("epsilon_1e6", _epsilon(1e-6)),
    Mistake("epsilon_in_sqrt", _epsilon_in_sqrt),
    Mistake("no_keepdim", _no_keepdim),
)

# `kata check grpo-advantage --bench`: many prompts at once; a loop over groups shows.
BENCH = ("4096 groups of G = 16", lambda g: Inputs(args={"rewards": torch.randn(4096, 16, generator=g)}))
