# kata: reward-model-loss
import torch
import torch.nn as nn


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    rewards_chosen = chosen_rewards
    rewards_rejected = rejected_rewards
    if margin is not None:
        loss = -nn.functional.logsigmoid(rewards_chosen - rewards_rejected + margin).mean()
    else:
        loss = -nn.functional.logsigmoid(rewards_chosen - rewards_rejected).mean()

    if center_rewards_coefficient is not None:
        loss += center_rewards_coefficient * torch.mean((rewards_chosen + rewards_rejected) ** 2)
    return loss
