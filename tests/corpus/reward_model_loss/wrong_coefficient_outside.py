# kata: reward-model-loss
# why: the pairwise loss and the centring term summed, then the whole multiplied by the coefficient
# mistake: coefficient_on_whole_loss
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards
    if margin is not None:
        d -= margin
    loss = -F.logsigmoid(d).mean()
    if center_rewards_coefficient is not None:
        loss = (loss + ((chosen_rewards + rejected_rewards) ** 2).mean()) * center_rewards_coefficient
    return loss
