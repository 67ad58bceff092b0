# kata: preference-losses
# why: IPO on summed log-ratios even when lengths are given
# mistake: ipo_lengths_ignored
import torch
from torch.nn import functional as F


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    pc, pr = policy_chosen_logps, policy_rejected_logps
    if loss_type == "simpo":
        if chosen_lengths is not None:
            pc = pc / chosen_lengths
            pr = pr / rejected_lengths
        logits = beta * (pc - pr) - simpo_gamma
        target = torch.full_like(logits, 1.0 - label_smoothing)
        return F.binary_cross_entropy_with_logits(logits, target)
    if loss_type not in {"sigmoid", "robust", "hinge", "ipo"}:
        raise ValueError("unknown loss_type " + str(loss_type))
    chosen_ratio = pc - ref_chosen_logps
    rejected_ratio = pr - ref_rejected_logps
    if loss_type == "ipo":
        return ((chosen_ratio - rejected_ratio - 1.0 / (2.0 * beta)) ** 2).mean()
    logits = beta * (chosen_ratio - rejected_ratio)
    if loss_type == "hinge":
        return F.relu(1.0 - logits).mean()
    if loss_type == "sigmoid":
        target = 1.0 - label_smoothing
    else:
        target = (1.0 - label_smoothing) / (1.0 - 2.0 * label_smoothing)
    return F.binary_cross_entropy_with_logits(logits, torch.full_like(logits, target))
