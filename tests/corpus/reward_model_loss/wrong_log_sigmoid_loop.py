# kata: reward-model-loss
# why: a loop over pairs with torch.log(torch.sigmoid(...)): -inf once sigmoid underflows
# mistake: log_of_sigmoid
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    n = chosen_rewards.shape[0]
    total = 0.0
    for i in range(n):
        m = 0.0 if margin is None else (margin[i] if isinstance(margin, torch.Tensor) else margin)
        total = total - torch.log(torch.sigmoid(chosen_rewards[i] - rejected_rewards[i] - m))
    loss = total / n
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
