# kata: grpo-advantage
import torch


def compute_group_advantages(rewards):
    G = rewards.shape[-1]
    groups = rewards.reshape(-1, G)  # [num_groups, G]
    out = torch.empty_like(groups)
    for i in range(groups.shape[0]):
        r = groups[i]
        mu = r.mean()
        var = ((r - mu) ** 2).sum() / (G - 1)
        out[i] = (r - mu) / torch.sqrt(var + 1e-8)
    return out.reshape(rewards.shape)
