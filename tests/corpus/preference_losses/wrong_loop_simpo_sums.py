# kata: preference-losses
# why: SimPO on summed log-probs even when lengths are given
# mistake: simpo_lengths_ignored
import torch
import torch.nn.functional as F


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    B = policy_chosen_logps.shape[0]
    terms = []
    for i in range(B):
        lc = 1 if chosen_lengths is None else chosen_lengths[i]
        lr = 1 if rejected_lengths is None else rejected_lengths[i]
        pc, pr = policy_chosen_logps[i], policy_rejected_logps[i]
        if loss_type == "simpo":
            z = beta * (pc - pr) - simpo_gamma
            term = -(1 - label_smoothing) * F.logsigmoid(z) - label_smoothing * F.logsigmoid(-z)
        elif loss_type in ("sigmoid", "robust", "hinge", "ipo"):
            rc, rr = ref_chosen_logps[i], ref_rejected_logps[i]
            if loss_type == "ipo":
                gap = (pc - rc) / lc - (pr - rr) / lr
                term = (gap - 1 / (2 * beta)) ** 2
            else:
                z = beta * ((pc - rc) - (pr - rr))
                if loss_type == "hinge":
                    term = torch.relu(1 - z)
                elif loss_type == "sigmoid":
                    term = -(1 - label_smoothing) * F.logsigmoid(z) - label_smoothing * F.logsigmoid(-z)
                else:
                    term = (-(1 - label_smoothing) * F.logsigmoid(z)
                            + label_smoothing * F.logsigmoid(-z)) / (1 - 2 * label_smoothing)
        else:
            raise ValueError(loss_type)
        terms.append(term)
    return torch.stack(terms).mean()
