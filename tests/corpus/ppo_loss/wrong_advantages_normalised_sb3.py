# kata: ppo-loss
# why: Stable-Baselines3's train() step: advantages normalised inside the loss, guarded for a single sample
# mistake: advantages_normalised_guarded
import torch
import torch.nn.functional as F


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    if len(advantages.reshape(-1)) > 1:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    ratio = torch.exp(new_log_probs - old_log_probs)
    policy_loss_1 = advantages * ratio
    policy_loss_2 = advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    policy_loss = -torch.min(policy_loss_1, policy_loss_2).mean()
    if value_clip is None:
        values_pred = values
    else:
        values_pred = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
    value_loss = 0.5 * torch.max(F.mse_loss(returns, values, reduction="none"),
                                 F.mse_loss(returns, values_pred, reduction="none")).mean()
    loss = policy_loss + vf_coef * value_loss
    if entropy is not None:
        loss = loss - ent_coef * torch.mean(entropy)
    return loss, policy_loss, value_loss
