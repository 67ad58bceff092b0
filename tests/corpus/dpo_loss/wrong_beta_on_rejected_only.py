# kata: dpo-loss
# why: softplus form, pair by pair; beta lands on the rejected log-ratio only
# mistake: beta_on_rejected_only
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    r_w = policy_chosen_logps - ref_chosen_logps
    r_l = beta * (policy_rejected_logps - ref_rejected_logps)
    per_pair = torch.stack([F.softplus(-(r_w[i] - r_l[i])) for i in range(r_w.shape[0])])
    with torch.no_grad():
        chosen, rejected = r_w.clone(), r_l.clone()
    return per_pair.mean(), chosen, rejected
