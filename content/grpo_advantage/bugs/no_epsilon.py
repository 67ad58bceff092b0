# kata: grpo-advantage
import torch


def compute_group_advantages(rewards):
    # rewards: [..., G], each row of the last dim is one prompt's group
    std, mean = torch.std_mean(rewards, dim=-1, keepdim=True)
    return (rewards - mean) / std
