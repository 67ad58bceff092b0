# kata: reward-model-loss
# why: the centring term from the two sides' means, squared: (mean(chosen) + mean(rejected))^2
# mistake: centring_square_of_mean
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    m = 0.0 if margin is None else margin
    loss = F.softplus(rejected_rewards - chosen_rewards + m).mean()
    if center_rewards_coefficient is not None:
        centre = chosen_rewards.mean() + rejected_rewards.mean()
        loss = loss + center_rewards_coefficient * centre * centre
    return loss
