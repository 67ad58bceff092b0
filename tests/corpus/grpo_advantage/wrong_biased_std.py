# kata: grpo-advantage
# why: the population std (unbiased=False) instead of torch's default unbiased one
# mistake: biased_std
import torch


def compute_group_advantages(rewards):
    mean = rewards.mean(dim=-1, keepdim=True)
    std = rewards.std(dim=-1, keepdim=True, unbiased=False)
    return (rewards - mean) / (std + 1e-8)
