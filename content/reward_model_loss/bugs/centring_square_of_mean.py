# kata: reward-model-loss
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards
    if margin is not None:
        d = d - margin
    loss = F.softplus(-d).mean()

    if center_rewards_coefficient is not None:
        pair_sums = chosen_rewards + rejected_rewards
        loss = loss + center_rewards_coefficient * pair_sums.mean() ** 2
    return loss
