# kata: dpo-loss
import torch


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    z = beta * ((policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps))
    pos = torch.log1p(torch.exp(-z.clamp(min=0)))  # z >= 0
    neg = -z + torch.log1p(torch.exp(z.clamp(max=0)))  # z < 0
    loss = torch.where(z >= 0, pos, neg).mean()
    chosen = (beta * (policy_chosen_logps - ref_chosen_logps)).detach()
    rejected = (beta * (policy_rejected_logps - ref_rejected_logps)).detach()
    return loss, chosen, rejected
