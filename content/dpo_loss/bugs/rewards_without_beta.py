# kata: dpo-loss
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    chosen_logratio = policy_chosen_logps - ref_chosen_logps
    rejected_logratio = policy_rejected_logps - ref_rejected_logps

    loss = -F.logsigmoid(beta * (chosen_logratio - rejected_logratio)).mean()

    with torch.no_grad():
        chosen_rewards = chosen_logratio.clone()
        rejected_rewards = rejected_logratio.clone()
    return loss, chosen_rewards, rejected_rewards
