# kata: reward-model-loss
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    if margin is None:
        margin = 0.0
    d = chosen_rewards - rejected_rewards - margin

    # -log sigmoid(d) = log(1 + exp(-d)), kept finite for large |d|
    losses = torch.clamp(-d, min=0) + torch.log1p(torch.exp(-torch.abs(d)))
    loss = losses.mean()

    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
