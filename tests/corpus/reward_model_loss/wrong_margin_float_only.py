# kata: reward-model-loss
# why: only a Python float margin subtracted; a [B] tensor margin falls through the isinstance test
# mistake: scalar_only_margin
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards
    if isinstance(margin, float):
        d = d - margin
    loss = F.softplus(-d).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
