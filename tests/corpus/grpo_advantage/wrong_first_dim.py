# kata: grpo-advantage
# why: statistics along dim 0 (across prompts) instead of along each group's last dim
# mistake: first_dim
import torch


def compute_group_advantages(rewards):
    mean = rewards.mean(dim=0, keepdim=True)
    std = rewards.std(dim=0, keepdim=True)
    return (rewards - mean) / (std + 1e-8)
