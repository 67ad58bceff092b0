# kata: dpo-loss
# why: the implicit rewards computed first, beta multiplied into the chosen one only; the loss is built from them
# mistake: beta_on_chosen_only
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected_rewards = policy_rejected_logps - ref_rejected_logps
    losses = -F.logsigmoid(chosen_rewards - rejected_rewards)
    return losses.mean(), chosen_rewards.detach(), rejected_rewards.detach()
