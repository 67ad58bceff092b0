# kata: ppo-loss
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    logratio = new_log_probs - old_log_probs
    ratio = logratio.exp()

    # policy loss (clipped surrogate objective, negated to minimise)
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    pg_loss = torch.min(pg_loss1, pg_loss2).mean()

    # value loss
    if value_clip is not None:
        v_loss_unclipped = (values - returns) ** 2
        v_clipped = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
        v_loss_clipped = (v_clipped - returns) ** 2
        v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
    else:
        v_loss = 0.5 * ((values - returns) ** 2).mean()

    loss = pg_loss + vf_coef * v_loss
    if entropy is not None:
        loss = loss - ent_coef * entropy.mean()
    return loss, pg_loss, v_loss
