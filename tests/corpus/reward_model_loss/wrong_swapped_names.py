# kata: reward-model-loss
# why: the difference taken the other way round (rejected minus chosen), then the margin subtracted
# mistake: chosen_rejected_swapped
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    delta = rejected_rewards - chosen_rewards
    if margin is not None:
        delta = delta - margin
    result = -F.logsigmoid(delta).mean()
    if center_rewards_coefficient is not None:
        result = result + center_rewards_coefficient * (rejected_rewards + chosen_rewards).square().mean()
    return result
