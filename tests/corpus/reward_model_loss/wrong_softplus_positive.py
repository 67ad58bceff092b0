# kata: reward-model-loss
# why: softplus of d itself, not of -d: the loss of the other ordering
# mistake: softplus_wrong_sign
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    margin = 0.0 if margin is None else margin
    loss = F.softplus(chosen_rewards - rejected_rewards - margin).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
