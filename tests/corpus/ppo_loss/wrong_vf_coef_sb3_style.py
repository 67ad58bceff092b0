# kata: ppo-loss
# why: Stable-Baselines3's sum of the three losses with the value coefficient dropped
# mistake: vf_coef_left_out
import torch
import torch.nn.functional as F


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = torch.exp(new_log_probs - old_log_probs)
    policy_loss_1 = advantages * ratio
    policy_loss_2 = advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    policy_loss = -torch.min(policy_loss_1, policy_loss_2).mean()
    if value_clip is None:
        values_pred = values
        value_loss = 0.5 * F.mse_loss(returns, values_pred)
    else:
        values_pred = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
        value_loss = 0.5 * torch.max(F.mse_loss(returns, values, reduction="none"),
                                     F.mse_loss(returns, values_pred, reduction="none")).mean()
    if entropy is None:
        loss = policy_loss + value_loss
    else:
        entropy_loss = -torch.mean(entropy)
        loss = policy_loss + ent_coef * entropy_loss + value_loss
    return loss, policy_loss, value_loss
