# kata: reward-model-loss
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    chosen = chosen_rewards if margin is None else chosen_rewards - margin
    logits = torch.stack([chosen, rejected_rewards], dim=1)  # (B, 2)
    target = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
    loss = F.cross_entropy(logits, target)
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
