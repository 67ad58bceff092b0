"""Group-relative advantages of GRPO.

Shao et al., "DeepSeekMath: Pushing the Limits of Mathematical Reasoning in Open Language Models"
(2024), §4.1.2 (outcome supervision): A_i = (r_i - mean(r)) / std(r) over the G completions of
one prompt; 1e-8 keeps a group of equal rewards at 0 instead of 0/0.
"""
import torch


def compute_group_advantages(rewards):
    """rewards: [..., G], one group per row of the last dim. Returns advantages of the same shape."""
    assert rewards.dim() >= 1 and rewards.shape[-1] >= 2, f"need groups of G >= 2, got shape {tuple(rewards.shape)}"
    mean = rewards.mean(dim=-1, keepdim=True)  # (..., 1)
    std = rewards.std(dim=-1, keepdim=True)  # (..., 1) unbiased, as torch's default
    return (rewards - mean) / (std + 1e-8)
