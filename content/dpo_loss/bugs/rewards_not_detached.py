# kata: dpo-loss
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)

    # -log sigmoid(z) = softplus(-z), stable for large |z|
    z = chosen_rewards - rejected_rewards
    loss = F.softplus(-z).mean()
    return loss, chosen_rewards, rejected_rewards
