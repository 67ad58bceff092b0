# kata: grpo-advantage
import torch


def compute_group_advantages(rewards):
    std, mean = torch.std_mean(rewards.double(), dim=-1, correction=1, keepdim=True)
    return ((rewards.double() - mean) / (std + 1e-8)).to(rewards.dtype)
