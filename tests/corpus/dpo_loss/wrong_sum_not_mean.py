# kata: dpo-loss
# why: sums the per-pair losses instead of averaging them
# mistake: sum_not_mean
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    return -F.logsigmoid(chosen - rejected).sum(), chosen.detach(), rejected.detach()
