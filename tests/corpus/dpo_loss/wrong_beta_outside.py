# kata: dpo-loss
# why: beta multiplies the log-sigmoid instead of the margin inside it
# mistake: beta_outside_sigmoid
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    margin = (policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps)
    loss = -(beta * F.logsigmoid(margin)).mean()
    return loss, (beta * (policy_chosen_logps - ref_chosen_logps)).detach(), (beta * (policy_rejected_logps - ref_rejected_logps)).detach()
