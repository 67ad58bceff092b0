"""Shared input makers for the RL katas: trajectories with dones placed on purpose."""
from __future__ import annotations

import torch


def trajectory(g: torch.Generator, T: int, done_at: tuple[int, ...] | str = (), *,
               dtype: torch.dtype = torch.float32, bool_dones: bool = True,
               shape_tail: tuple[int, ...] = (), scale: float = 1.0) -> dict[str, torch.Tensor]:
    """rewards, dones, values of length T (times `shape_tail` for batched envs), of size `scale`.

    done_at: step indices that end an episode, "random" for a random 20% of steps, "all".
    """
    shape = (T, *shape_tail)
    rewards = (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)
    values = (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)
    if done_at == "random":
        dones = torch.rand(shape, generator=g) < 0.2
    elif done_at == "all":
        dones = torch.ones(shape, dtype=torch.bool)
    else:
        dones = torch.zeros(shape, dtype=torch.bool)
        for t in done_at:
            dones[t] = True
    return {"rewards": rewards, "dones": dones if bool_dones else dones.to(dtype), "values": values}


def pick(g: torch.Generator, choices: list) -> object:
    return choices[int(torch.randint(len(choices), (1,), generator=g))]


def uniform(g: torch.Generator, low: float, high: float) -> float:
    return low + (high - low) * float(torch.rand((), generator=g, dtype=torch.float64))


def randint(g: torch.Generator, low: int, high: int) -> int:
    """An int in [low, high]."""
    return int(torch.randint(low, high + 1, (1,), generator=g))
