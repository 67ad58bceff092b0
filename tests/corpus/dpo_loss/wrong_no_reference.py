# kata: dpo-loss
# why: the reference model's log-probs never enter the margin
# mistake: reference_left_out
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    loss = -F.logsigmoid(beta * (policy_chosen_logps - policy_rejected_logps)).mean()
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    return loss, chosen.detach(), rejected.detach()
