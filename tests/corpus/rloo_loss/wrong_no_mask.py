# kata: rloo-loss
# why: the mask never used: the padding's garbage log-probs are summed in
# mistake: mask_ignored
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.view(-1, k)
    adv = torch.zeros_like(r) if k == 1 else r - (r.sum(1, keepdim=True) - r) / (k - 1)
    adv = adv.reshape(-1)
    return -(adv.to(log_probs.dtype) * log_probs.sum(-1)).mean(), adv
