# kata: speculative-decoding
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    idx = draft_tokens.unsqueeze(-1)
    p = target_probs[:, :K].gather(-1, idx).squeeze(-1)  # p_i(x_i)
    q = draft_probs.gather(-1, idx).squeeze(-1)  # q_i(x_i)
    accepted = uniforms <= p / q
    num_accepted = accepted.sum(dim=-1)

    rows = torch.arange(B, device=draft_tokens.device)
    pos = num_accepted.clamp(max=K - 1)
    residual = (target_probs[rows, pos] - draft_probs[rows, pos]).clamp(min=0)
    residual = residual / residual.sum(dim=-1, keepdim=True)
    next_probs = torch.where((num_accepted == K)[:, None], target_probs[:, K], residual)
    return num_accepted, next_probs
