# kata: dpo-loss
# why: every log-prob summed into one margin: the reference terms enter with the policy's signs
# mistake: reference_added
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    margin = (policy_chosen_logps + ref_chosen_logps) - (policy_rejected_logps + ref_rejected_logps)
    loss = F.softplus(-beta * margin).mean()
    with torch.no_grad():
        chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
        rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)
    return loss, chosen_rewards, rejected_rewards
