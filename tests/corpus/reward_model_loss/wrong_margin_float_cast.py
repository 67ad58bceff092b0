# kata: reward-model-loss
# why: float(margin): fine for a float, raises for a tensor of more than one pair
# mistake: scalar_only_margin
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    m = float(margin) if margin is not None else 0.0
    d = chosen_rewards - rejected_rewards - m
    loss = torch.nn.functional.softplus(-d).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
