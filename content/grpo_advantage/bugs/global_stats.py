# kata: grpo-advantage
import torch


def compute_group_advantages(rewards):
    # GRPO: no critic, the group mean is the baseline
    group_mean = rewards.mean()
    advantages = rewards - group_mean
    advantages = advantages / (rewards.std() + 1e-8)
    return advantages
