# kata: grpo-advantage
import torch


def compute_group_advantages(rewards):
    flat = rewards.reshape(-1, rewards.shape[-1])  # [num_groups, G]
    out = []
    for group in flat:
        out.append((group - group.mean()) / (group.std() + 1e-8))
    return torch.stack(out).reshape(rewards.shape)
