# kata: grpo-advantage
# why: the seed notes' version: one mean and one std over the whole tensor, not per group
# mistake: global_stats
import torch


def compute_group_advantages(rewards):
    group_mean = rewards.mean()
    advantages = rewards - group_mean
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return advantages
