"""Case families for `mc-advantage`: every place a done can sit, gamma's corners, the epsilon."""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import randint, trajectory, uniform


def _case(T, done_at=(), *, gamma=0.99, dtype=torch.float32, bool_dones=True, scale=1.0):
    def make(g: torch.Generator) -> Inputs:
        args = trajectory(g, T, done_at, dtype=dtype, bool_dones=bool_dones, scale=scale)
        args.update(gamma=gamma)
        return Inputs(args=args, show={"gamma": gamma})
    return make


def _constant_advantage(g: torch.Generator) -> Inputs:
    # Every step ends its episode, so returns = rewards and returns - values = 1 exactly (small
    # integers): the advantages have std 0, and only the + 1e-8 keeps them at 0 instead of NaN.
    rewards = torch.randint(-3, 4, (6,), generator=g).to(torch.float32)
    args = {"rewards": rewards, "dones": torch.ones(6, dtype=torch.bool), "values": rewards - 1.0, "gamma": 0.9}
    return Inputs(args=args, show={"gamma": 0.9})


def _random(bool_dones: bool, dtype: torch.dtype = torch.float32):
    def make(g: torch.Generator) -> Inputs:
        T = randint(g, 2, 40)
        args = trajectory(g, T, "random", dtype=dtype, bool_dones=bool_dones)
        gamma = round(uniform(g, 0.8, 1.0), 3)
        args.update(gamma=gamma)
        return Inputs(args=args, show={"gamma": gamma})
    return make


FAMILIES = (
    Family("no_dones", _case(8)),
    Family("done_in_middle", _case(8, (3,))),
    Family("done_at_first_step", _case(6, (0,))),
    Family("done_at_last_step", _case(6, (5,))),
    Family("consecutive_dones", _case(8, (2, 3, 4))),
    Family("all_done", _case(6, "all")),
    Family("float_dones", _case(8, (2, 5), bool_dones=False)),
    Family("float_dones_all", _case(5, "all", bool_dones=False)),
    Family("two_steps", _case(2, (0,))),
    Family("two_steps_no_done", _case(2)),
    Family("gamma_zero", _case(8, (4,), gamma=0.0)),
    Family("gamma_one", _case(8, (4,), gamma=1.0)),
    Family("constant_advantage", _constant_advantage),
    Family("tiny_advantages", _case(12, (4, 9), scale=1e-6)),
    Family("long_float64", _case(300, "random", dtype=torch.float64), draws=3),
    Family("long_discounted_float64", _case(300, (), gamma=0.99, dtype=torch.float64)),
    Family("long_no_dones_float64", _case(400, (), gamma=1.0, dtype=torch.float64)),
    Family("random", _random(True), draws=45),
    Family("random_float_dones", _random(False), draws=30),
    Family("random_float64", _random(True, torch.float64), draws=10),
    Family("device", _case(8, (3,)), track_device=True),
)


# ---------------------------------------------------------------- known mistakes


def _mc_variant(*, use_dones=True, cut_late=False, bootstrap=False, unbiased=True, eps=1e-8, eps_in_sqrt=False,
                normalise=True, returns_normalised=False, gamma_float32=False, in_float32=False, default_zeros=False):
    def compute_mc_advantage(rewards, dones, values, gamma=0.99):
        dtype = rewards.dtype
        if in_float32:  # the whole computation in float32, cast back at the end
            rewards, values = rewards.float(), values.float()
        if gamma_float32:  # a float32 constant: in float64 it carries float32's rounding of gamma
            gamma = torch.tensor(gamma)
        not_done = 1.0 - dones.to(rewards.dtype)
        ret = torch.zeros(rewards.shape[0]) if default_zeros else torch.zeros_like(rewards)
        running = values[-1] * not_done[-1] if bootstrap else torch.zeros_like(rewards[0])
        for t in reversed(range(rewards.shape[0])):
            if use_dones and not cut_late:
                running = running * not_done[t]
            running = rewards[t] + gamma * running
            ret[t] = running
            if use_dones and cut_late:
                running = running * not_done[t]  # reset after storing: step t-1 is cut by dones[t]
        if returns_normalised:
            ret = (ret - ret.mean()) / (ret.std() + 1e-8)
        adv = ret - values
        if normalise:
            if eps_in_sqrt:
                adv = (adv - adv.mean()) / torch.sqrt(adv.var(unbiased=unbiased) + eps)
            elif eps is None:
                adv = (adv - adv.mean()) / adv.std(unbiased=unbiased)
            else:
                adv = (adv - adv.mean()) / (adv.std(unbiased=unbiased) + eps)
        return (adv.to(dtype), ret.to(dtype)) if in_float32 else (adv, ret)
    return compute_mc_advantage


MISTAKES = (
    Mistake("dones_ignored", _mc_variant(use_dones=False)),
    Mistake("cut_one_step_late", _mc_variant(cut_late=True)),
    Mistake("bootstrap_last_value", _mc_variant(bootstrap=True)),
    Mistake("biased_std", _mc_variant(unbiased=False)),
    Mistake("not_normalised", _mc_variant(normalise=False)),
    Mistake("returns_normalised", _mc_variant(returns_normalised=True)),
    Mistake("no_epsilon", _mc_variant(eps=None)),
    Mistake("epsilon_1e9", _mc_variant(eps=1e-9)),
    Mistake("epsilon_1e6", _mc_variant(eps=1e-6)),
    Mistake("epsilon_in_sqrt", _mc_variant(eps_in_sqrt=True)),
    Mistake("gamma_float32", _mc_variant(gamma_float32=True)),
    Mistake("computed_in_float32", _mc_variant(in_float32=True)),
    Mistake("returns_default_dtype", _mc_variant(default_zeros=True)),
)

# `kata check mc-advantage --bench`: one long trajectory, where a Python loop per step shows its cost.
BENCH = ("T = 4096, random dones", lambda g: Inputs(args={**trajectory(g, 4096, "random"), "gamma": 0.99}))
