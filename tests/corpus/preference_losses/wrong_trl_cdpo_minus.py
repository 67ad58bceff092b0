# kata: preference-losses
# why: cDPO subtracts the flipped term
# mistake: cdpo_flipped_term_subtracted
import torch
import torch.nn.functional as F


def _log_sig(x):
    return F.logsigmoid(x)


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    out_dtype = policy_chosen_logps.dtype
    chosen = policy_chosen_logps.double()
    rejected = policy_rejected_logps.double()
    if loss_type == "simpo":
        if chosen_lengths is not None:
            chosen = chosen / chosen_lengths.double()
            rejected = rejected / rejected_lengths.double()
        gamma_logratios = simpo_gamma / beta
        logits = (chosen - rejected) - gamma_logratios
        losses = (-_log_sig(beta * logits) * (1 - label_smoothing)
                  - _log_sig(-beta * logits) * label_smoothing)
        return losses.mean().to(out_dtype)
    chosen_logratios = chosen - ref_chosen_logps.double()
    rejected_logratios = rejected - ref_rejected_logps.double()
    if loss_type == "ipo":
        if chosen_lengths is not None:
            chosen_logratios = chosen_logratios / chosen_lengths.double()
            rejected_logratios = rejected_logratios / rejected_lengths.double()
        logits = chosen_logratios - rejected_logratios
        losses = (logits - 1 / (2 * beta)) ** 2
    else:
        logits = chosen_logratios - rejected_logratios
        if loss_type == "sigmoid":
            losses = (-_log_sig(beta * logits) * (1 - label_smoothing)
                      + _log_sig(-beta * logits) * label_smoothing)
        elif loss_type == "robust":
            clean = -(1 - label_smoothing) * _log_sig(beta * logits)
            flipped = -label_smoothing * _log_sig(-beta * logits)
            losses = (clean - flipped) / (1 - 2 * label_smoothing)
        elif loss_type == "hinge":
            losses = torch.relu(1 - beta * logits)
        else:
            raise ValueError(f"Unknown loss type: {loss_type}")
    return losses.mean().to(out_dtype)
