# kata: reward-model-loss
# why: the stable softplus in method-chained form, (-d).clamp_min(0) + (-|d|).exp().log1p(): its gradient at d = 0 is -1
# mistake: kinked_stable_formula
def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    d = chosen_rewards - rejected_rewards
    if margin is not None:
        d = d - margin
    nll = (-d).clamp_min(0) + (-d.abs()).exp().log1p()
    loss = nll.mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * (chosen_rewards + rejected_rewards).pow(2).mean()
    return loss
