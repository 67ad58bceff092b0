# kata: reward-model-loss
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    B = chosen_rewards.shape[0]
    terms, centre = [], []
    for i in range(B):
        m = 0.0 if margin is None else (margin[i] if torch.is_tensor(margin) else margin)
        terms.append(-F.logsigmoid(chosen_rewards[i] - rejected_rewards[i] - m))
        centre.append((chosen_rewards[i] + rejected_rewards[i]) ** 2)
    loss = torch.stack(terms).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * torch.stack(centre).mean()
    return loss
