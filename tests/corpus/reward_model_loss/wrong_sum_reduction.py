# kata: reward-model-loss
# why: BCE with logits and reduction="sum": the loss grows with the batch
# mistake: sum_not_mean
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    z = chosen_rewards - rejected_rewards
    if margin is not None:
        z = z - margin
    loss = F.binary_cross_entropy_with_logits(z, torch.ones_like(z), reduction="sum")
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
