# kata: dpo-loss
# why: softplus(-z) as relu(-z) + log1p(exp(-|z|)): the gradient at z = 0 is 0, not -1/2
# mistake: kinked_relu_formula
import torch


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    z = chosen - rejected
    loss = (torch.relu(-z) + torch.log1p(torch.exp(-z.abs()))).mean()
    return loss, chosen.detach(), rejected.detach()
