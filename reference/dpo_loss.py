"""The DPO loss (sigmoid form) with the implicit rewards TRL logs.

Rafailov et al., "Direct Preference Optimization: Your Language Model is Secretly a Reward Model"
(NeurIPS 2023), eq. 7:
    L = -E[ log sigma( beta * log(pi(y_w|x) / pi_ref(y_w|x)) - beta * log(pi(y_l|x) / pi_ref(y_l|x)) ) ]
with the implicit reward r(x, y) = beta * log(pi(y|x) / pi_ref(y|x)) of eq. 5. log sigma(z) is
computed as logsigmoid, which stays finite for |z| in the thousands where log(sigmoid(z)) is -inf.
The rewards are for logging only: detached, so nothing trains through them.
"""
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    """Four [B] tensors of summed completion log-probs. Returns (loss 0-dim, chosen_rewards [B], rejected_rewards [B])."""
    B = policy_chosen_logps.shape[0]
    for t in (policy_rejected_logps, ref_chosen_logps, ref_rejected_logps):
        assert t.shape == (B,), f"expected four [{B}] tensors, got one of shape {tuple(t.shape)}"
    chosen = policy_chosen_logps - ref_chosen_logps  # (B,) log pi/pi_ref of the preferred completion
    rejected = policy_rejected_logps - ref_rejected_logps  # (B,) ... of the dispreferred one
    z = beta * (chosen - rejected)  # (B,) the reward margin r_w - r_l
    loss = -F.logsigmoid(z).mean()
    return loss, beta * chosen.detach(), beta * rejected.detach()
