# kata: dpo-loss
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    terms, chosen, rejected = [], [], []
    for i in range(policy_chosen_logps.shape[0]):
        # implicit rewards: log pi/pi_ref of each completion
        c = policy_chosen_logps[i] - ref_chosen_logps[i]
        r = policy_rejected_logps[i] - ref_rejected_logps[i]
        terms.append(-beta * F.logsigmoid(c - r))
        chosen.append(beta * c.detach())
        rejected.append(beta * r.detach())
    return torch.stack(terms).mean(), torch.stack(chosen), torch.stack(rejected)
