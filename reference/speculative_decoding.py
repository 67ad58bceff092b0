"""One verification step of speculative sampling.

Leviathan, Kalman & Matias, "Fast Inference from Transformers via Speculative Decoding" (ICML 2023),
Algorithm 1 (Chen et al. 2023, "Accelerating LLM Decoding with Speculative Sampling", Algorithm 2, alike);
transformers `_speculative_sampling`. Draft x_i ~ q_i is accepted iff u_i <= p_i(x_i) / q_i(x_i); the first
rejection, at n, ends the step and the next token is drawn from the residual norm(max(0, p_n - q_n));
when all K drafts are accepted, from the target's next distribution p_K (the bonus token). Drawing x from
the residual after a rejection makes the emitted token exactly p-distributed (Leviathan, Appendix A.1).
"""
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    """draft_tokens [B, K], draft_probs [B, K, V], target_probs [B, K+1, V], uniforms [B, K].
    Returns num_accepted int64 [B] and next_probs [B, V] (target_probs' dtype)."""
    B, K = draft_tokens.shape
    assert draft_probs.shape[:2] == (B, K) and target_probs.shape[:2] == (B, K + 1), "shapes do not line up"
    index = draft_tokens[..., None]  # (B, K, 1)
    p = target_probs[:, :K].gather(-1, index).squeeze(-1)  # (B, K) p_i(x_i)
    q = draft_probs.gather(-1, index).squeeze(-1)  # (B, K) q_i(x_i) > 0
    accepted = uniforms <= p / q  # (B, K)
    num_accepted = accepted.long().cumprod(dim=-1).sum(dim=-1)  # (B,) leading acceptances only
    rows = torch.arange(B, device=draft_tokens.device)
    at = num_accepted.clamp(max=K - 1)  # (B,) the rejected position (unused when all are accepted)
    residual = (target_probs[rows, at] - draft_probs[rows, at]).clamp(min=0)  # (B, V)
    residual = residual / residual.sum(dim=-1, keepdim=True)  # a rejection means p_n(x) < q_n(x): mass > 0
    bonus = target_probs[:, K]  # (B, V) p_K
    next_probs = torch.where((num_accepted == K)[:, None], bonus, residual)
    return num_accepted, next_probs
