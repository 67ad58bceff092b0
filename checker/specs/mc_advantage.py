"""Case families for `mc-advantage`: every place a done can sit, gamma's corners, the epsilon."""
from __future__ import annotations

import torch

from checker.spec import Family, Inputs, Mistake
from checker.specs._rl import randint, trajectory, uniform


def _case(T, done_at=(), *, gamma=0.99, dtype=torch.float32, bool_dones=True):
    def make(g: torch.Generator) -> Inputs:
        args = trajectory(g, T, done_at, dtype=dtype, bool_dones=bool_dones)
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
    Family("long_float64", _case(300, "random", dtype=torch.float64), draws=3),
    Family("long_no_dones_float64", _case(400, (), gamma=1.0, dtype=torch.float64)),
    Family("random", _random(True), draws=45),
    Family("random_float_dones", _random(False), draws=30),
    Family("random_float64", _random(True, torch.float64), draws=10),
    Family("device", _case(8, (3,)), track_device=True),
)


# ---------------------------------------------------------------- known mistakes


def _returns(rewards, dones, gamma, *, cut_late=False, use_dones=True, bootstrap=None):
    not_done = 1.0 - dones.to(rewards.dtype)
    out = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0]) if bootstrap is None else bootstrap
    for t in reversed(range(rewards.shape[0])):
        if use_dones and not cut_late:
            running = running * not_done[t]
        running = rewards[t] + gamma * running
        out[t] = running
        if use_dones and cut_late:
            running = running * not_done[t]  # reset after storing: step t-1 is cut by dones[t]
    return out


def _norm(a, unbiased=True):
    return (a - a.mean()) / (a.std(unbiased=unbiased) + 1e-8)


def _dones_ignored(rewards, dones, values, gamma=0.99):
    ret = _returns(rewards, dones, gamma, use_dones=False)
    return _norm(ret - values), ret


def _cut_one_step_late(rewards, dones, values, gamma=0.99):
    ret = _returns(rewards, dones, gamma, cut_late=True)
    return _norm(ret - values), ret


def _bootstrap_last_value(rewards, dones, values, gamma=0.99):
    ret = _returns(rewards, dones, gamma, bootstrap=values[-1] * (1.0 - dones[-1].to(values.dtype)))
    return _norm(ret - values), ret


def _biased_std(rewards, dones, values, gamma=0.99):
    ret = _returns(rewards, dones, gamma)
    return _norm(ret - values, unbiased=False), ret


def _not_normalised(rewards, dones, values, gamma=0.99):
    ret = _returns(rewards, dones, gamma)
    return ret - values, ret


def _returns_normalised(rewards, dones, values, gamma=0.99):
    ret = _norm(_returns(rewards, dones, gamma))
    return _norm(ret - values), ret


MISTAKES = (
    Mistake("dones_ignored", _dones_ignored),
    Mistake("cut_one_step_late", _cut_one_step_late),
    Mistake("bootstrap_last_value", _bootstrap_last_value),
    Mistake("biased_std", _biased_std),
    Mistake("not_normalised", _not_normalised),
    Mistake("returns_normalised", _returns_normalised),
)

# `kata check mc-advantage --bench`: one long trajectory, where a Python loop per step shows its cost.
BENCH = ("T = 4096, random dones", lambda g: Inputs(args={**trajectory(g, 4096, "random"), "gamma": 0.99}))
