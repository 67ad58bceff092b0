# kata: reward-model-loss
# why: the two stable branches of softplus(-d) with torch.where, each branch's input clamped so the unused one stays finite
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards
    if margin is not None:
        d = d - margin
    pos = torch.log1p(torch.exp(-d.clamp(min=0)))  # d >= 0
    neg = -d + torch.log1p(torch.exp(d.clamp(max=0)))  # d < 0
    loss = torch.where(d >= 0, pos, neg).mean()
    if center_rewards_coefficient is not None:
        s = chosen_rewards + rejected_rewards
        loss = loss + center_rewards_coefficient * (s * s).sum() / s.numel()
    return loss
