# kata: grpo-advantage
# why: the epsilon inside the square root, sqrt(var + 1e-8), as a layer norm has it
# mistake: epsilon_in_sqrt
import torch


def compute_group_advantages(rewards):
    centred = rewards - rewards.mean(dim=-1, keepdim=True)
    return centred / torch.sqrt(rewards.var(dim=-1, keepdim=True) + 1e-8)
