# kata: reward-model-loss
# why: TRL's RewardTrainer.compute_loss layout: logsigmoid of the margin-adjusted difference, then `loss +=` the centring term
import torch
import torch.nn as nn


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    if margin is not None:
        loss = -nn.functional.logsigmoid(chosen_rewards - rejected_rewards - margin).mean()
    else:
        loss = -nn.functional.logsigmoid(chosen_rewards - rejected_rewards).mean()
    if center_rewards_coefficient is not None:
        loss += center_rewards_coefficient * torch.mean((chosen_rewards + rejected_rewards) ** 2)
    return loss
