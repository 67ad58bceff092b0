# kata: grpo-advantage
# why: the std written as the square root of the (unbiased) variance
import torch


def compute_group_advantages(rewards):
    mean = rewards.mean(dim=-1, keepdim=True)
    std = rewards.var(dim=-1, keepdim=True).sqrt()
    return (rewards - mean) / (std + 1e-8)
