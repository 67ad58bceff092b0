# kata: reward-model-loss
# why: the missing margin built with torch.zeros(B) on the default device: on a GPU the subtraction raises
# mistake: none
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    if margin is None:
        margin = torch.zeros(chosen_rewards.shape[0], dtype=chosen_rewards.dtype)
    loss = -F.logsigmoid(chosen_rewards - rejected_rewards - margin).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
