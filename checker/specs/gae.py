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
    Family("no_dones", "one episode that never ends inside the trajectory", _case(8)),
    Family("done_in_middle", "a done at step 3 cuts the value and advantage flowing back from step 4", _case(8, (3,))),
    Family("done_at_first_step", "a done at step 0: step 0 keeps only its own reward", _case(6, (0,))),
    Family("done_at_last_step", "a done at the last step (nothing after it anyway)", _case(6, (5,))),
    Family("consecutive_dones", "dones at steps 2, 3 and 4 in a row", _case(8, (2, 3, 4))),
    Family("all_done", "every step ends an episode: A = r - V", _case(6, "all")),
    Family("float_dones", "dones given as 0./1. floats instead of bools", _case(8, (2, 5), bool_dones=False)),
    Family("two_steps", "T = 2, a done at step 0", _case(2, (0,))),
    Family("two_steps_no_done", "T = 2 with no done", _case(2)),
    Family("gamma_zero", "gamma = 0: A = r - V at every step", _case(8, (4,), gamma=0.0)),
    Family("gamma_one", "gamma = 1: no discounting", _case(8, (4,), gamma=1.0)),
    Family("lam_zero", "lam = 0: A is the one-step TD error", _case(8, (4,), lam=0.0)),
    Family("lam_one", "lam = 1: A is the Monte-Carlo return minus V", _case(8, (4,), lam=1.0)),
    Family("long_float64", "T = 300 in float64 with random dones",
           _case(300, "random", dtype=torch.float64), draws=3),
    Family("long_no_dones_float64", "T = 400 in float64, gamma = lam = 1, no dones",
           _case(400, (), gamma=1.0, lam=1.0, dtype=torch.float64)),
    Family("random", "random lengths, dones, gamma and lam (bool dones)", _random(True), draws=50),
    Family("random_float_dones", "random lengths, dones, gamma and lam (float dones)", _random(False), draws=35),
    Family("device", "tensors you create follow the inputs' device (checked as if the inputs were on a GPU)",
           _case(8, (3,)), track_device=True),
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
    Mistake("dones ignored", "multiply both gamma * next_value and the carried advantage by (1 - dones[t])",
            _gae_variant(cut_value=False, cut_carry=False)),
    Mistake("a done does not cut the carried advantage", "A[t] = delta[t] + gamma * lam * (1 - dones[t]) * A[t+1]",
            _gae_variant(cut_carry=False)),
    Mistake("a done does not cut the next value", "delta[t] = rewards[t] + gamma * V[t+1] * (1 - dones[t]) - values[t]",
            _gae_variant(cut_value=False)),
    Mistake("a done cuts one step late (dones[t+1] used for step t)",
            "the done that cuts step t's future is dones[t], the same index as the reward", _gae_variant(late=True)),
    Mistake("bootstrapped from the last value", "after the last step the next value is 0: there is no bootstrap",
            _gae_variant(bootstrap=True)),
    Mistake("returns from the normalised advantages", "returns = raw A + values; normalise the advantages after that",
            _gae_variant(returns_from="normalised")),
    Mistake("biased std", "use A.std() (unbiased, torch's default), not std(unbiased=False) or np.std",
            _gae_variant(unbiased=False)),
    Mistake("advantages not normalised", "advantages = (A - A.mean()) / (A.std() + 1e-8)",
            _gae_variant(normalise=False)),
)

# `kata check gae --bench`: one long trajectory, where a Python loop per step shows its cost.
BENCH = ("T = 4096, random dones", lambda g: Inputs(args={**trajectory(g, 4096, "random"), "gamma": 0.99, "lam": 0.95}))
