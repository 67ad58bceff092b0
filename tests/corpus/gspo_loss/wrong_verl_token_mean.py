# kata: gspo-loss
# why: verl's GSPO-token form aggregated with token-mean: each response weighted by its length
# mistake: token_mean_over_responses
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    mask = response_mask.to(log_probs.dtype)
    lengths = mask.sum(-1).clamp(min=1)
    seq_kl = ((log_probs - old_log_probs) * mask).sum(-1) / lengths
    log_s = log_probs - log_probs.detach() + seq_kl.detach()[:, None]
    s = torch.exp(log_s)
    A = advantages[:, None]
    pg = torch.maximum(-A * s, -A * torch.clamp(s, 1 - clip_ratio_low, 1 + clip_ratio_high))
    return (pg * mask).sum() / mask.sum()
