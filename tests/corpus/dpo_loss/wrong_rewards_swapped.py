# kata: dpo-loss
# why: returns the rewards in the wrong order (rejected first)
# mistake: rewards_swapped
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    loss = -F.logsigmoid(chosen - rejected).mean()
    return loss, rejected.detach(), chosen.detach()
