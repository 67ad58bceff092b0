"""Case families for `gae`: every place a done can sit, and the γ/λ corners."""
from __future__ import annotations

import torch

from checker.spec import Family, Inputs
from checker.specs._rl import randint, trajectory, uniform


def _case(T, done_at=(), *, gamma=0.99, lam=0.95, dtype=torch.float32, bool_dones=True):
    def make(g: torch.Generator) -> Inputs:
        n = T if isinstance(T, int) else randint(g, *T)
        where = done_at(n) if callable(done_at) else done_at
        args = trajectory(g, n, where, dtype=dtype, bool_dones=bool_dones)
        args.update(gamma=gamma, lam=lam)
        return Inputs(args=args, show={"gamma": gamma, "lam": lam})
    return make


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
    Family("long_float64", _case(300, "random", dtype=torch.float64), draws=3),
    Family("long_no_dones_float64", _case(400, (), gamma=1.0, lam=1.0, dtype=torch.float64)),
    Family("random", _random(True), draws=50),
    Family("random_float_dones", _random(False), draws=35),
    Family("device", _case(8, (3,)), track_device=True),
)


# ---------------------------------------------------------------- known mistakes

from checker.spec import Mistake  # noqa: E402 — appended with the mistakes they build


def _gae_variant(*, cut_value=True, cut_carry=True, late=False, bootstrap=False, returns_from="raw",
                 unbiased=True, normalise=True):
    def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
        T = rewards.shape[0]
        nd = 1.0 - dones.to(rewards.dtype)
        adv = torch.zeros_like(rewards)
        next_value = values[-1] if bootstrap else torch.zeros_like(rewards[0])
        gae = torch.zeros_like(rewards[0])
        for t in reversed(range(T)):
            cut = (nd[t + 1] if t + 1 < T else torch.ones_like(nd[t])) if late else nd[t]
            delta = rewards[t] + gamma * next_value * (cut if cut_value else 1.0) - values[t]
            gae = delta + gamma * lam * (cut if cut_carry else 1.0) * gae
            adv[t] = gae
            next_value = values[t]
        norm = (adv - adv.mean()) / (adv.std(unbiased=unbiased) + 1e-8) if normalise else adv
        returns = (norm if returns_from == "normalised" else adv) + values
        return norm, returns
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
)

# `kata check gae --bench`: one long trajectory, where a Python loop per step shows its cost.
BENCH = ("T = 4096, random dones", lambda g: Inputs(args={**trajectory(g, 4096, "random"), "gamma": 0.99, "lam": 0.95}))
