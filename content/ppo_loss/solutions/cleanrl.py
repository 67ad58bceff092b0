# kata: ppo-loss
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    logratio = new_log_probs - old_log_probs
    ratio = logratio.exp()
    mb_advantages = advantages
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

    newvalue = values
    if value_clip is not None:
        v_loss_unclipped = (newvalue - returns) ** 2
        v_clipped = old_values + torch.clamp(newvalue - old_values, -value_clip, value_clip)
        v_loss_clipped = (v_clipped - returns) ** 2
        v_loss_max = torch.max(v_loss_unclipped, v_loss_clipped)
        v_loss = 0.5 * v_loss_max.mean()
    else:
        v_loss = 0.5 * ((newvalue - returns) ** 2).mean()

    entropy_loss = entropy.mean() if entropy is not None else 0.0
    loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
    return loss, pg_loss, v_loss
