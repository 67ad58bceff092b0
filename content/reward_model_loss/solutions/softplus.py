# kata: reward-model-loss
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    if margin is None:
        margin = 0.0
    loss = F.softplus(-(chosen_rewards - rejected_rewards - margin)).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
