# kata: dpo-loss
# why: the margin is rejected minus chosen: the loss prefers the rejected completion
# mistake: sign_flipped
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    loss = -F.logsigmoid(rejected - chosen).mean()
    return loss, chosen.detach(), rejected.detach()
