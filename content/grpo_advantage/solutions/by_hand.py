# kata: grpo-advantage
import torch


def compute_group_advantages(rewards):
    G = rewards.shape[-1]
    mean = rewards.sum(-1, keepdim=True) / G
    centred = rewards - mean
    std = torch.sqrt((centred ** 2).sum(-1, keepdim=True) / (G - 1))
    return centred / (std + 1e-8)
