# kata: reward-model-loss
# why: the auxiliary term penalises the squared gap between the two rewards instead of their sum
# mistake: centring_on_difference
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    gap = chosen_rewards - rejected_rewards
    bt = -F.logsigmoid(gap - margin if margin is not None else gap).mean()
    if center_rewards_coefficient is None:
        return bt
    return bt + center_rewards_coefficient * torch.mean(torch.square(gap))
