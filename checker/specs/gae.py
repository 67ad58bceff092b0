"""Case families for `gae`: every place a done can sit, and the γ/λ corners."""
from __future__ import annotations

import torch

from checker.judge.spec import Family, Inputs
from checker.specs._rl import randint, trajectory, uniform


def _case(T, done_at=(), *, gamma=0.99, lam=0.95, dtype=torch.float32, bool_dones=True, scale=1.0):
    def make(g: torch.Generator) -> Inputs:
        n = T if isinstance(T, int) else randint(g, *T)
        where = done_at(n) if callable(done_at) else done_at
        args = trajectory(g, n, where, dtype=dtype, bool_dones=bool_dones, scale=scale)
        args.update(gamma=gamma, lam=lam)
        return Inputs(args=args, show={"gamma": gamma, "lam": lam})
    return make


def _constant_advantage(g: torch.Generator) -> Inputs:
    # Every step ends its episode, so A = rewards - values = 1 exactly (small integers): the
    # advantages have std 0, and only the + 1e-8 keeps them at 0 instead of NaN.
    rewards = torch.randint(-3, 4, (6,), generator=g).to(torch.float32)
    args = {"rewards": rewards, "dones": torch.ones(6, dtype=torch.bool), "values": rewards - 1.0, "gamma": 0.9,
            "lam": 0.95}
    return Inputs(args=args, show={"gamma": 0.9, "lam": 0.95})


def _random(bool_dones: bool):
    def make(g: torch.Generator) -> Inputs:
        T = randint(g, 2, 40)
        args = trajectory(g, T, "random", bool_dones=bool_dones)
        gamma, lam = round(uniform(g, 0.8, 1.0), 3), round(uniform(g, 0.5, 1.0), 3)
        args.update(gamma=gamma, lam=lam)
        return Inputs(args=args, show={"gamma": gamma, "lam": lam})
    return make


FAMILIES = (
    Family("no_dones", _case(8)),
    Family("done_in_middle", _case(8, (3,))),
    Family("done_at_first_step", _case(6, (0,))),
    Family("done_at_last_step", _case(6, (5,))),
    Family("consecutive_dones", _case(8, (2, 3, 4))),
    Family("all_done", _case(6, "all")),
    Family("float_dones", _case(8, (2, 5), bool_dones=False)),
    Family("two_steps", _case(2, (0,))),
    Family("two_steps_no_done", _case(2)),
    Family("gamma_zero", _case(8, (4,), gamma=0.0)),
    Family("gamma_one", _case(8, (4,), gamma=1.0)),
    Family("lam_zero", _case(8, (4,), lam=0.0)),
    Family("lam_one", _case(8, (4,), lam=1.0)),
    Family("constant_advantage", _constant_advantage),
    Family("tiny_advantages", _case(12, (4, 9), scale=1e-6)),
    Family("long_float64", _case(300, "random", dtype=torch.float64), draws=3),
    Family("long_discounted_float64", _case(300, (), dtype=torch.float64)),
    Family("long_no_dones_float64", _case(400, (), gamma=1.0, lam=1.0, dtype=torch.float64)),
    Family("random", _random(True), draws=50),
    Family("random_float_dones", _random(False), draws=35),
    Family("device", _case(8, (3,)), track_device=True),
)


# ---------------------------------------------------------------- known mistakes

from checker.judge.spec import Mistake  # noqa: E402 — appended with the mistakes they build


def _gae_variant(*, cut_value=True, cut_carry=True, late=False, bootstrap=False, returns_from="raw",
                 unbiased=True, normalise=True, eps=1e-8, eps_in_sqrt=False, gamma_in_carry=True,
                 gamma_float32=False, in_float32=False):
    def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
        dtype = rewards.dtype
        if in_float32:  # the whole computation in float32, cast back at the end
            rewards, values = rewards.float(), values.float()
        if gamma_float32:  # a float32 constant: in float64 it carries float32's rounding of gamma
            gamma = torch.tensor(gamma)
        T = rewards.shape[0]
        nd = 1.0 - dones.to(rewards.dtype)
        adv = torch.zeros_like(rewards)
        next_value = values[-1] if bootstrap else torch.zeros_like(rewards[0])
        gae = torch.zeros_like(rewards[0])
        for t in reversed(range(T)):
            cut = (nd[t + 1] if t + 1 < T else torch.ones_like(nd[t])) if late else nd[t]
            delta = rewards[t] + gamma * next_value * (cut if cut_value else 1.0) - values[t]
            gae = delta + (gamma if gamma_in_carry else 1.0) * lam * (cut if cut_carry else 1.0) * gae
            adv[t] = gae
            next_value = values[t]
        if not normalise:
            norm = adv
        elif eps_in_sqrt:
            norm = (adv - adv.mean()) / torch.sqrt(adv.var(unbiased=unbiased) + eps)
        elif eps is None:
            norm = (adv - adv.mean()) / adv.std(unbiased=unbiased)
        else:
            norm = (adv - adv.mean()) / (adv.std(unbiased=unbiased) + eps)
        returns = (norm if returns_from == "normalised" else adv) + values
        return (norm.to(dtype), returns.to(dtype)) if in_float32 else (norm, returns)
    return compute_gae


MISTAKES = (
    Mistake("dones_ignored", _gae_variant(cut_value=False, cut_carry=False)),
    Mistake("carry_not_cut", _gae_variant(cut_carry=False)),
    Mistake("value_not_cut", _gae_variant(cut_value=False)),
    Mistake("cut_one_step_late", _gae_variant(late=True)),
    Mistake("bootstrap_last_value", _gae_variant(bootstrap=True)),
    Mistake("returns_from_normalised", _gae_variant(returns_from="normalised")),
    Mistake("biased_std", _gae_variant(unbiased=False)),
    Mistake("not_normalised", _gae_variant(normalise=False)),
    Mistake("gamma_missing_in_carry", _gae_variant(gamma_in_carry=False)),
    Mistake("no_epsilon", _gae_variant(eps=None)),
    Mistake("epsilon_1e9", _gae_variant(eps=1e-9)),
    Mistake("epsilon_1e6", _gae_variant(eps=1e-6)),
    Mistake("epsilon_in_sqrt", _gae_variant(eps_in_sqrt=True)),
    Mistake("gamma_float32", _gae_variant(gamma_float32=True)),
    Mistake("computed_in_float32", _gae_variant(in_float32=True)),
)

# `kata check gae --bench`: one long trajectory, where a Python loop per step shows its cost.
BENCH = ("T = 4096, random dones", lambda g: Inputs(args={**trajectory(g, 4096, "random"), "gamma": 0.99, "lam": 0.95}))
