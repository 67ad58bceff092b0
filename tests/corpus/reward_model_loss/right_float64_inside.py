# kata: reward-model-loss
# why: everything in float64 inside, F.logsigmoid, the loss cast back to the rewards' dtype
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    dtype = chosen_rewards.dtype
    rc, rr = chosen_rewards.double(), rejected_rewards.double()
    d = rc - rr
    if margin is not None:
        d = d - (margin.double() if hasattr(margin, "double") else margin)
    loss = -F.logsigmoid(d).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((rc + rr) ** 2).mean()
    return loss.to(dtype)
