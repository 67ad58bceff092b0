# kata: dpo-loss
# why: -log(sigmoid(z)): sigmoid underflows to 0 for z of about -150 in float32, the loss is inf
# mistake: log_of_sigmoid
import torch


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    loss = -torch.log(torch.sigmoid(chosen - rejected)).mean()
    return loss, chosen.detach(), rejected.detach()
