# kata: grpo-advantage
"""GRPO group-relative advantages.

Write `compute_group_advantages(rewards) -> advantages`.

Input:
    rewards  [..., G]: the last dim is one group of G >= 2 completions sampled for one prompt.
             A 1-D tensor is a single group; [B, G] is B prompts; any leading dims are allowed.
             float32 unless a case says float64.

Contract, for every group (every index of the leading dims) on its own:
    advantages = (r - r.mean()) / (r.std() + 1e-8)    along the last dim
    with torch's default (unbiased) std. Each group uses its own mean and std, never
    statistics over the whole tensor. A group whose rewards are all equal gives zeros, not NaN.

The output has the shape, dtype and device of `rewards`. Do not modify the input.

Run `kata check grpo-advantage` to test; `kata hint grpo-advantage` for a nudge.
"""
import torch


def compute_group_advantages(rewards):
    raise NotImplementedError("write compute_group_advantages")
