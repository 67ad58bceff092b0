# kata: reward-model-loss
# why: both softplus branches computed on the raw d and picked with torch.where: the unused one overflows, NaN gradient
# mistake: where_nan_gradient
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards
    if margin is not None:
        d = d - margin
    upper = torch.log1p(torch.exp(-d))
    lower = torch.log1p(torch.exp(d)) - d
    loss = torch.where(d > 0, upper, lower).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
