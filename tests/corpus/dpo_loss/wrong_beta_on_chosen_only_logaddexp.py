# kata: dpo-loss
# why: -log sigma(z) as logaddexp(0, -z); the chosen reward carries beta, the rejected one does not
# mistake: beta_on_chosen_only
import torch


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = policy_rejected_logps - ref_rejected_logps
    z = chosen - rejected
    loss = torch.logaddexp(torch.zeros_like(z), -z).mean()
    return loss, chosen.detach(), rejected.detach()
