# kata: dpo-loss
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    terms, chosen, rejected = [], [], []
    for b in range(policy_chosen_logps.shape[0]):
        c = beta * (policy_chosen_logps[b] - ref_chosen_logps[b])
        r = beta * (policy_rejected_logps[b] - ref_rejected_logps[b])
        terms.append(-F.logsigmoid(c - r))
        chosen.append(c.detach())
        rejected.append(r.detach())
    return torch.stack(terms).mean(), torch.stack(chosen), torch.stack(rejected)
