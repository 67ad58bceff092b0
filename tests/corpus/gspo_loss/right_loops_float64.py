# kata: gspo-loss
# why: one response at a time with boolean indexing, float64 inside, the objective negated at the end
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    keep = response_mask.bool()
    terms = []
    for i in range(log_probs.shape[0]):
        lr = (log_probs[i][keep[i]] - old_log_probs[i][keep[i]]).double()
        s = torch.exp(lr.mean())  # geometric mean of the token ratios
        a = advantages[i].double()
        terms.append(torch.min(s * a, torch.clamp(s, 1 - clip_ratio_low, 1 + clip_ratio_high) * a))
    return (-torch.stack(terms).mean()).to(log_probs.dtype)
