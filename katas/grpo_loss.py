# kata: grpo-loss
"""The GRPO loss: PPO-clip surrogate with a KL penalty to a reference policy.

Write `grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
clip_epsilon=0.2, kl_beta=0.04, mask=None) -> loss` (a 0-dim tensor).

Inputs (on the same device; float32 unless a case says float64):
    old_log_probs, new_log_probs, ref_log_probs
             [G]     one log-prob per completion, or
             [G, T]  one log-prob per token of each of G completions
             (old: the policy that sampled; new: the one being trained; ref: the frozen reference)
    advantages  [G]  one advantage per completion, the same for all of its tokens
    mask     [G, T] bool or 0./1. float, True/1 = a real token (None = every token is real);
             only used with [G, T] inputs; every completion has at least one real token

Contract, per token:
    ratio     = exp(new - old)
    surrogate = min(ratio * A, clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
    kl        = exp(ref - new) - (ref - new) - 1          (the k3 estimator, always >= 0)
    loss      = -(surrogate - kl_beta * kl)
Reduction:
    [G]:     the mean over the G completions
    [G, T]:  each completion's mean over its own real tokens, then the mean over the G completions
             (a short completion counts as much as a long one)

Return a 0-dim tensor with the dtype and device of new_log_probs. The loss must be differentiable
w.r.t. new_log_probs: the checker compares its gradient with the reference's (so keep the ratio in
the graph). Do not modify the inputs.

Run `kata check grpo-loss` to test; `kata hint grpo-loss` for a nudge.
"""
import torch


def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs,
                   clip_epsilon=0.2, kl_beta=0.04, mask=None):
    raise NotImplementedError("write grpo_calc_loss")
