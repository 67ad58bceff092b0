# kata: reward-model-loss
# why: the centring term as the mean square of all 2B rewards together, not of each pair's sum
# mistake: centring_per_side
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    diff = chosen_rewards - rejected_rewards
    if margin is not None:
        diff = diff - margin
    loss = -F.logsigmoid(diff).mean()
    if center_rewards_coefficient is not None:
        rewards = torch.cat([chosen_rewards, rejected_rewards])
        loss = loss + center_rewards_coefficient * rewards.pow(2).mean()
    return loss
