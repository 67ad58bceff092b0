# kata: reward-model-loss
# why: the coefficient read under another name (center_coef) from keyword arguments, so it is never found
# mistake: centring_ignored
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None, **kwargs):
    d = chosen_rewards - rejected_rewards - (margin if margin is not None else 0.0)
    loss = F.softplus(-d).mean()
    coef = kwargs.get("center_coef")
    if coef is not None:
        loss = loss + coef * torch.mean((chosen_rewards + rejected_rewards) ** 2)
    return loss
