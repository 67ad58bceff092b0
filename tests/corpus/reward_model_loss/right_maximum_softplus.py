# kata: reward-model-loss
# why: the hand-written stable softplus with torch.maximum, whose gradient at a tie is split in half: right at d = 0
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards - (margin if margin is not None else 0.0)
    per_pair = torch.maximum(-d, torch.zeros_like(d)) + torch.log1p(torch.exp(-torch.abs(d)))
    loss = per_pair.mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
