# kata: grpo-advantage
# why: subtracts the group mean but never divides by the group std
# mistake: not_divided_by_std
import torch


def compute_group_advantages(rewards):
    return rewards - rewards.mean(dim=-1, keepdim=True)
