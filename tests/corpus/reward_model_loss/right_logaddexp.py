# kata: reward-model-loss
# why: -log σ(d) = log(1 + e^-d) as torch.logaddexp(0, -d), margin defaulted to 0.0
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    m = 0.0 if margin is None else margin
    d = chosen_rewards - rejected_rewards - m
    nll = torch.logaddexp(torch.zeros_like(d), -d)
    total = nll.mean()
    if center_rewards_coefficient:
        total = total + center_rewards_coefficient * torch.mean(torch.square(chosen_rewards + rejected_rewards))
    return total
