# kata: reward-model-loss
# why: torch's margin_ranking_loss (a hinge, max(0, 1 - d)) in place of the Bradley–Terry log-likelihood
# mistake: hinge_instead
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    x1 = chosen_rewards if margin is None else chosen_rewards - margin
    loss = F.margin_ranking_loss(x1, rejected_rewards, torch.ones_like(x1), margin=1.0)
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
