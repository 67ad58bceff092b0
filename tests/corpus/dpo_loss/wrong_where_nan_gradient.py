# kata: dpo-loss
# why: torch.where over the two softplus branches unclamped: the unused branch overflows and its NaN gradient leaks through
# mistake: where_nan_gradient
import torch


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    z = chosen - rejected
    loss = torch.where(z >= 0, torch.log1p(torch.exp(-z)), -z + torch.log1p(torch.exp(z))).mean()
    return loss, chosen.detach(), rejected.detach()
