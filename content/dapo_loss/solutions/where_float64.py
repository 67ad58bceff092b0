# kata: dapo-loss
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = (advantages if advantages.dim() == 2 else advantages[:, None]).double().expand(log_probs.shape)
    ratio = (log_probs.double() - old_log_probs.double()).exp()
    # A > 0: the ratio is capped above; A < 0: below
    capped = torch.where(A > 0, ratio.clamp(max=1 + clip_ratio_high), ratio.clamp(min=1 - clip_ratio_low))
    obj = capped * A
    if clip_ratio_c is not None:
        obj = torch.where(A < 0, torch.maximum(obj, clip_ratio_c * A), obj)
    w = response_mask.double()
    loss = -torch.einsum("bt,bt->", obj, w) / w.sum()
    return loss.to(log_probs.dtype)
