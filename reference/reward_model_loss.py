"""The pairwise reward-model loss (Bradley–Terry), as TRL's RewardTrainer computes it.

Ouyang et al., "Training language models to follow instructions with human feedback" (InstructGPT, 2022),
eq. 1: loss(θ) = -E[ log σ(r_θ(x, y_w) - r_θ(x, y_l)) ], the Bradley–Terry likelihood of the preferred
completion. Touvron et al., "Llama 2" (2023), eq. 2, subtracts a per-pair margin m(r) inside the sigmoid
(a pair rated far apart must be separated by more); Eisenstein et al., "Helping or Herding?" (2023), adds
an auxiliary term that keeps the rewards centred on zero. TRL's `RewardTrainer.compute_loss`:

    loss = -logsigmoid(rewards_chosen - rewards_rejected - margin).mean()
    loss += center_rewards_coefficient * mean((rewards_chosen + rewards_rejected) ** 2)

-log σ(d) is computed as -logsigmoid(d): finite for |d| in the thousands, where log(sigmoid(d)) is -inf,
and smooth at d = 0, where its gradient is -1/2 (a zero-initialised reward head starts there).
"""
import torch
import torch.nn.functional as F


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    """chosen_rewards, rejected_rewards [B]; margin None, a float or [B]. Returns the 0-dim loss."""
    B = chosen_rewards.shape[0]
    assert chosen_rewards.shape == (B,) and rejected_rewards.shape == (B,), (
        f"expected two [B] tensors, got {tuple(chosen_rewards.shape)} and {tuple(rejected_rewards.shape)}")
    d = chosen_rewards - rejected_rewards  # (B,) how far the chosen completion is ahead
    if margin is not None:
        d = d - margin  # (B,) it must be ahead by at least the margin
    loss = -F.logsigmoid(d).mean()
    if center_rewards_coefficient is not None:
        loss = loss + center_rewards_coefficient * ((chosen_rewards + rejected_rewards) ** 2).mean()
    return loss
