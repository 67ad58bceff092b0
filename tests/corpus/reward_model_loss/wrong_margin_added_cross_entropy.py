# kata: reward-model-loss
# why: the two-way classification form with the margin added to the chosen logit: pairs need less, not more
# mistake: margin_added
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    chosen = chosen_rewards if margin is None else chosen_rewards + margin
    logits = torch.stack([chosen, rejected_rewards], dim=-1)
    loss = F.cross_entropy(logits, torch.zeros(len(logits), dtype=torch.long, device=logits.device))
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
