# kata: ppo-loss
# why: CleanRL's block with the 0.5 moved onto the unclipped squared error only: max(0.5 a, b) is not 0.5 max(a, b)
# mistake: half_on_unclipped_only
import torch


def ppo_loss(new_log_probs, old_log_probs, advantages, values, old_values, returns,
             clip_eps=0.2, value_clip=0.2, vf_coef=0.5, entropy=None, ent_coef=0.0):
    ratio = (new_log_probs - old_log_probs).exp()
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

    v_loss_unclipped = 0.5 * (values - returns) ** 2
    if value_clip is not None:
        v_clipped = old_values + torch.clamp(values - old_values, -value_clip, value_clip)
        v_loss_clipped = (v_clipped - returns) ** 2
        v_loss = torch.max(v_loss_unclipped, v_loss_clipped).mean()
    else:
        v_loss = v_loss_unclipped.mean()

    loss = pg_loss + vf_coef * v_loss
    if entropy is not None:
        loss = loss - ent_coef * entropy.mean()
    return loss, pg_loss, v_loss
