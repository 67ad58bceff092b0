# kata: reward-model-loss
# why: the loss computed under torch.no_grad() (as for logging): right value, no gradient for the reward model
# mistake: rewards_detached
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    with torch.no_grad():
        d = chosen_rewards - rejected_rewards
        if margin is not None:
            d = d - margin
        loss = -F.logsigmoid(d).mean()
        if center_rewards_coefficient is not None:
            loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
