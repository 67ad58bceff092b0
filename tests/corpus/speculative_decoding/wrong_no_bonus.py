# kata: speculative-decoding
# why: when every draft is accepted returns the last draft position's target row
# mistake: no_bonus_row
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    p = target_probs[:, :K].gather(-1, draft_tokens[..., None]).squeeze(-1)
    q = draft_probs.gather(-1, draft_tokens[..., None]).squeeze(-1)
    n = (uniforms <= p / q).long().cumprod(-1).sum(-1)
    rows = torch.arange(B, device=draft_tokens.device)
    at = n.clamp(max=K - 1)
    res = (target_probs[rows, at] - draft_probs[rows, at]).clamp(min=0)
    res = res / res.sum(-1, keepdim=True)
    return n, torch.where((n == K)[:, None], target_probs[rows, K - 1], res)
