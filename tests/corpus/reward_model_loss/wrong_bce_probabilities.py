# kata: reward-model-loss
# why: the preference probability first, then nn.BCELoss on it: its log is clamped at -100
# mistake: bce_on_probabilities
import torch
from torch import nn


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    m = 0.0 if margin is None else margin
    p_win = torch.sigmoid(chosen_rewards - rejected_rewards - m)
    loss = nn.BCELoss()(p_win, torch.ones_like(p_win))
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
