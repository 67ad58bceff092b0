# kata: grpo-advantage
# why: torch.std_mean with correction=1 in float64, cast back to the input's dtype
import torch


def compute_group_advantages(rewards):
    std, mean = torch.std_mean(rewards.double(), dim=-1, correction=1, keepdim=True)
    return ((rewards.double() - mean) / (std + 1e-8)).to(rewards.dtype)
