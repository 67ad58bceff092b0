# kata: reward-model-loss
# why: the BCE-with-logits form with the margin's mean taken off the loss afterwards, outside the sigmoid
# mistake: margin_outside_sigmoid
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    gap = chosen_rewards - rejected_rewards
    out = F.binary_cross_entropy_with_logits(gap, torch.ones_like(gap))
    if margin is not None:
        out = out - torch.as_tensor(margin, dtype=gap.dtype, device=gap.device).mean()
    if center_rewards_coefficient is not None:
        out = out + center_rewards_coefficient * torch.mean((chosen_rewards + rejected_rewards) ** 2)
    return out
