"""Case families for `gae-batched`: dones in every place, per env, and the masked bootstrap."""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import randint, trajectory, uniform


def _rollout(g, T, N, done_at=(), *, dtype=torch.float32, bool_dones=True, gamma=0.99, lam=0.95,
             env_dones=()) -> Inputs:
    """done_at: steps where every env is done; env_dones: (t, n) pairs done in one env only."""
    args = trajectory(g, T, done_at, dtype=dtype, bool_dones=True, shape_tail=(N,))
    for t, n in env_dones:
        args["dones"][t, n] = True
    if not bool_dones:
        args["dones"] = args["dones"].to(dtype)
    args["last_values"] = torch.randn(N, generator=g, dtype=torch.float64).to(dtype)
    args.update(gamma=gamma, lam=lam)
    return Inputs(args=args, show={"gamma": gamma, "lam": lam, "T": T, "N": N})


def _case(T, N, done_at=(), **kw):
    return lambda g: _rollout(g, T, N, done_at, **kw)


def _random(bool_dones: bool, dtype: torch.dtype = torch.float32):
    def make(g: torch.Generator) -> Inputs:
        T, N = randint(g, 1, 24), randint(g, 1, 6)
        gamma, lam = round(uniform(g, 0.8, 1.0), 3), round(uniform(g, 0.5, 1.0), 3)
        return _rollout(g, T, N, "random", dtype=dtype, bool_dones=bool_dones, gamma=gamma, lam=lam)
    return make


FAMILIES = (
    Family("no_dones", _case(6, 3)),
    Family("done_in_middle", _case(6, 3, (2,))),
    Family("done_in_one_env", _case(6, 3, env_dones=((2, 1),))),
    Family("done_at_first_step", _case(5, 3, (0,))),
    Family("done_at_last_step", _case(5, 3, (4,))),
    Family("done_at_last_step_some_envs", _case(5, 4, env_dones=((4, 0), (4, 2)))),
    Family("consecutive_dones", _case(6, 2, (1, 2, 3))),
    Family("all_done", _case(4, 3, "all")),
    Family("float_dones", _case(6, 3, (1,), bool_dones=False, env_dones=((5, 0), (3, 2)))),
    Family("one_step", _case(1, 3, env_dones=((0, 1),))),
    Family("one_env", _case(7, 1, (3,))),
    Family("one_step_one_env", _case(1, 1)),
    Family("one_step_one_env_done", _case(1, 1, (0,))),
    Family("two_steps", _case(2, 3, env_dones=((0, 0),))),
    Family("square", _case(4, 4, env_dones=((1, 2), (3, 0)))),
    Family("gamma_zero", _case(6, 3, (2,), gamma=0.0)),
    Family("gamma_one", _case(6, 3, (2,), gamma=1.0)),
    Family("lam_zero", _case(6, 3, (2,), lam=0.0)),
    Family("lam_one", _case(6, 3, (2,), lam=1.0)),
    Family("long_float64", _case(300, 4, "random", dtype=torch.float64),
           draws=2),
    Family("long_no_dones_float64", _case(320, 2, (), gamma=1.0, lam=1.0, dtype=torch.float64)),
    Family("long_discounted_float64", _case(300, 3, (), dtype=torch.float64)),
    Family("random", _random(True), draws=45),
    Family("random_float_dones", _random(False), draws=25),
    Family("random_float64", _random(True, torch.float64), draws=10),
    Family("device", _case(5, 3, env_dones=((2, 1), (4, 0))), track_device=True),
)


# ---------------------------------------------------------------- known mistakes


def _gae_variant(*, cut_value=True, cut_carry=True, mask_bootstrap=True, bootstrap=True, late=False,
                 normalise=False, gamma_float32=False, in_float32=False, in_place=False):
    def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
        dtype = rewards.dtype
        if in_float32:  # the whole computation in float32, cast back at the end
            rewards, values, last_values = rewards.float(), values.float(), last_values.float()
        if gamma_float32:  # a float32 constant: in float64 it carries float32's rounding of gamma
            gamma = torch.tensor(gamma)
        T = rewards.shape[0]
        nd = 1.0 - dones.to(rewards.dtype)
        adv = torch.zeros_like(rewards)
        next_value = last_values if bootstrap else torch.zeros_like(last_values)
        gae = torch.zeros_like(rewards[0])
        deltas = rewards if in_place else torch.zeros_like(rewards)  # in place: the caller's rewards become the TD errors
        for t in reversed(range(T)):
            cut = (nd[t + 1] if t + 1 < T else torch.ones_like(nd[t])) if late else nd[t]
            value_cut = cut if (t < T - 1 or mask_bootstrap) else torch.ones_like(cut)
            delta = rewards[t] + gamma * next_value * (value_cut if cut_value else 1.0) - values[t]
            deltas[t] = delta
            gae = deltas[t] + gamma * lam * (cut if cut_carry else 1.0) * gae
            adv[t] = gae
            next_value = values[t]
        returns = adv + values
        if normalise:  # as gae's contract does, though this one asks for the raw advantages
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        return (adv.to(dtype), returns.to(dtype)) if in_float32 else (adv, returns)
    return compute_gae_batched


# Narrowest first: on a case where two variants agree, the report names the first that matches.
MISTAKES = (
    Mistake("bootstrap_not_masked", _gae_variant(mask_bootstrap=False)),
    Mistake("dones_ignored", _gae_variant(cut_value=False, cut_carry=False)),
    Mistake("no_bootstrap", _gae_variant(bootstrap=False)),
    Mistake("carry_not_cut", _gae_variant(cut_carry=False)),
    Mistake("value_not_cut", _gae_variant(cut_value=False)),
    Mistake("cut_one_step_late", _gae_variant(late=True)),
    Mistake("normalised", _gae_variant(normalise=True)),
    Mistake("gamma_float32", _gae_variant(gamma_float32=True)),
    Mistake("computed_in_float32", _gae_variant(in_float32=True)),
    Mistake("rewards_modified_in_place", _gae_variant(in_place=True)),
)

# `kata check gae-batched --bench`: a rollout of 64 envs; a loop over envs as well as steps shows.
BENCH = ("T = 1024, N = 64", lambda g: Inputs(args={**trajectory(g, 1024, "random", shape_tail=(64,)),
                                                   "last_values": torch.randn(64, generator=g), "gamma": 0.99, "lam": 0.95}))
