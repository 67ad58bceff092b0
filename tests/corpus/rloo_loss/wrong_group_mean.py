# kata: rloo-loss
# why: GRPO's baseline, the group mean with the sample's own reward in it
# mistake: grpo_mean_baseline
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.view(-1, k)
    adv = (r - r.mean(dim=1, keepdim=True)).reshape(-1)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    return -(adv.to(log_probs.dtype) * (log_probs * m).sum(-1)).mean(), adv
