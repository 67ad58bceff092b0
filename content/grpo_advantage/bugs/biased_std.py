# kata: grpo-advantage
import numpy as np
import torch


def compute_group_advantages(rewards):
    r = rewards.detach().cpu().numpy().astype(np.float64)
    mean = r.mean(axis=-1, keepdims=True)
    std = r.std(axis=-1, keepdims=True)
    adv = (r - mean) / (std + 1e-8)
    return torch.from_numpy(adv).to(device=rewards.device, dtype=rewards.dtype)
