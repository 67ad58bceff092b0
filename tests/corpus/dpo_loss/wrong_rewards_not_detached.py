# kata: dpo-loss
# why: returns the rewards still attached to the policy's graph
# mistake: rewards_not_detached
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    return -F.logsigmoid(chosen - rejected).mean(), chosen, rejected
