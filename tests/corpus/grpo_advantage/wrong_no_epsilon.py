# kata: grpo-advantage
# why: divides by the bare std: a group of equal rewards gives 0/0 = NaN
# mistake: no_epsilon
import torch


def compute_group_advantages(rewards):
    mean = rewards.mean(dim=-1, keepdim=True)
    std = rewards.std(dim=-1, keepdim=True)
    return (rewards - mean) / std
