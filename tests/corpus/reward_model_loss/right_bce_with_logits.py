# kata: reward-model-loss
# why: binary cross-entropy with logits against all-ones labels (the preferred side always wins)
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    logits = chosen_rewards - rejected_rewards
    if margin is not None:
        logits = logits - margin
    loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * (chosen_rewards + rejected_rewards).pow(2).mean()
    return loss
