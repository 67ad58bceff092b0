# kata: grpo-advantage
# why: reduces without keepdim, so [B, G] - [B] broadcasts along the wrong dim (or fails when B != G)
# mistake: no_keepdim
import torch


def compute_group_advantages(rewards):
    mean = rewards.mean(dim=-1)
    std = rewards.std(dim=-1)
    return (rewards - mean) / (std + 1e-8)
