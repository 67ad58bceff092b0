# kata: reward-model-loss
# why: two mistakes at once, log(sigmoid(d)) and a sum over pairs: no single known mistake explains it
# mistake: none
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards
    if margin is not None:
        d = d - margin
    loss = -torch.log(torch.sigmoid(d)).sum()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
