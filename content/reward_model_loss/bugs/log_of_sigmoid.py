# kata: reward-model-loss
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    logits = chosen_rewards - rejected_rewards
    if margin is not None:
        logits = logits - margin
    prob_chosen = torch.sigmoid(logits)
    loss = -torch.log(prob_chosen).mean()

    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * torch.mean((chosen_rewards + rejected_rewards) ** 2)
    return loss
