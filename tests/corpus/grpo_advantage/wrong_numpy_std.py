# kata: grpo-advantage
# why: goes through NumPy, whose np.std is the biased (ddof=0) std, and comes back on the CPU
# mistake: biased_std
import numpy as np
import torch


def compute_group_advantages(rewards):
    r = rewards.detach().cpu().numpy()
    adv = (r - r.mean(axis=-1, keepdims=True)) / (r.std(axis=-1, keepdims=True) + 1e-8)
    return torch.from_numpy(adv)
