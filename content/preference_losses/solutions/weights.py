# kata: preference-losses
import torch
import torch.nn.functional as F


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    if loss_type not in ("sigmoid", "robust", "hinge", "ipo", "simpo"):
        raise ValueError(loss_type)
    ones = torch.ones_like(policy_chosen_logps)
    len_c = ones if chosen_lengths is None else chosen_lengths.to(policy_chosen_logps.dtype)
    len_r = ones if rejected_lengths is None else rejected_lengths.to(policy_chosen_logps.dtype)
    e = label_smoothing

    if loss_type == "simpo":
        x = beta * (policy_chosen_logps / len_c - policy_rejected_logps / len_r) - simpo_gamma
        w_pos, w_neg = 1 - e, e
    else:
        log_ratio_c = policy_chosen_logps - ref_chosen_logps
        log_ratio_r = policy_rejected_logps - ref_rejected_logps
        if loss_type == "ipo":
            gap = log_ratio_c / len_c - log_ratio_r / len_r
            return ((gap - 0.5 / beta) ** 2).mean()
        x = beta * (log_ratio_c - log_ratio_r)
        if loss_type == "hinge":
            return (1 - x).clamp(min=0).mean()
        if loss_type == "sigmoid":
            w_pos, w_neg = 1 - e, e
        else:
            w_pos, w_neg = (1 - e) / (1 - 2 * e), -e / (1 - 2 * e)

    per_pair = -w_pos * F.logsigmoid(x) - w_neg * F.logsigmoid(-x)
    return per_pair.mean()
