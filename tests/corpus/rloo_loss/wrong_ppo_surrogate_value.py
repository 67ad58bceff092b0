# kata: rloo-loss
# why: TRL's RLOO loss as the PPO surrogate at the first step: -A * exp(logp - logp.detach()), whose value is -mean(A) = 0 and whose gradient is the kata's
# mistake: ppo_surrogate_value
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.detach().view(-1, k)
    if k > 1:
        adv = r - (r.sum(1, keepdim=True) - r) / (k - 1)
    else:
        adv = torch.zeros_like(r)
    adv = adv.flatten()
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    seq_logp = (log_probs * m).sum(-1)
    ratio = torch.exp(seq_logp - seq_logp.detach())
    return -(adv.to(log_probs.dtype) * ratio).mean(), adv
