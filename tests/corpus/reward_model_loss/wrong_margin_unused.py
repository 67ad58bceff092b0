# kata: reward-model-loss
# why: the margin is accepted and never used
# mistake: margin_ignored
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    logits = torch.stack([chosen_rewards, rejected_rewards], dim=1)
    loss = (torch.logsumexp(logits, dim=1) - chosen_rewards).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * logits.sum(dim=1).pow(2).mean()
    return loss
