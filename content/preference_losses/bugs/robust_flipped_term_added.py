# kata: preference-losses
import torch
import torch.nn.functional as F


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    eps = label_smoothing
    if chosen_lengths is None:
        chosen_norm, rejected_norm = 1.0, 1.0
    else:
        chosen_norm, rejected_norm = chosen_lengths, rejected_lengths

    if loss_type == "simpo":
        avg_chosen = policy_chosen_logps / chosen_norm
        avg_rejected = policy_rejected_logps / rejected_norm
        logits = beta * (avg_chosen - avg_rejected) - simpo_gamma
        losses = -(1 - eps) * F.logsigmoid(logits) - eps * F.logsigmoid(-logits)
        return losses.mean()

    if loss_type not in ("sigmoid", "robust", "hinge", "ipo"):
        raise ValueError(f"Unknown loss type: {loss_type}")

    chosen_logratios = policy_chosen_logps - ref_chosen_logps
    rejected_logratios = policy_rejected_logps - ref_rejected_logps

    if loss_type == "ipo":
        delta = chosen_logratios / chosen_norm - rejected_logratios / rejected_norm
        losses = (delta - 1 / (2 * beta)) ** 2
        return losses.mean()

    logits = beta * (chosen_logratios - rejected_logratios)
    if loss_type == "hinge":
        losses = torch.relu(1 - logits)
    elif loss_type == "sigmoid":
        losses = -(1 - eps) * F.logsigmoid(logits) - eps * F.logsigmoid(-logits)
    else:
        clean = -(1 - eps) * F.logsigmoid(logits)
        flipped = -eps * F.logsigmoid(-logits)
        losses = (clean + flipped) / (1 - 2 * eps)
    return losses.mean()
