# kata: preference-losses
# why: robust without dividing by 1 - 2 eps
# mistake: robust_without_rescale
import torch

KINDS = ("sigmoid", "robust", "hinge", "ipo", "simpo")


def _nll(z):
    return torch.logaddexp(torch.zeros_like(z), -z)


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    if loss_type not in KINDS:
        raise ValueError(f"loss_type must be one of {KINDS}, got {loss_type!r}")
    eps = float(label_smoothing)
    n_c = 1.0 if chosen_lengths is None else chosen_lengths
    n_r = 1.0 if rejected_lengths is None else rejected_lengths
    if loss_type == "simpo":
        u = beta * (policy_chosen_logps / n_c - policy_rejected_logps / n_r) - simpo_gamma
        per_pair = (1 - eps) * _nll(u) + eps * _nll(-u)
    elif loss_type == "ipo":
        d = (policy_chosen_logps - ref_chosen_logps) / n_c - (policy_rejected_logps - ref_rejected_logps) / n_r
        per_pair = torch.square(d - 0.5 / beta)
    else:
        u = beta * ((policy_chosen_logps - policy_rejected_logps) - (ref_chosen_logps - ref_rejected_logps))
        if loss_type == "hinge":
            per_pair = torch.clamp(1 - u, min=0)
        elif loss_type == "sigmoid":
            per_pair = (1 - eps) * _nll(u) + eps * _nll(-u)
        else:
            per_pair = (1 - eps) * _nll(u) - eps * _nll(-u)
    return per_pair.mean()
