# kata: reward-model-loss
# why: F.relu(-d) + log(1 + exp(-|d|)): right values everywhere, but relu's gradient at d = 0 is 0
# mistake: kinked_relu_formula
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    score = chosen_rewards - rejected_rewards - (0.0 if margin is None else margin)
    per_pair = F.relu(-score) + torch.log(1 + torch.exp(-torch.abs(score)))
    loss = torch.mean(per_pair)
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * torch.mean((chosen_rewards + rejected_rewards) ** 2)
    return loss
