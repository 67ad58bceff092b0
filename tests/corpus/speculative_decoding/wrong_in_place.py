# kata: speculative-decoding
# why: builds the residual in the target_probs tensor itself
# mistake: none
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    p = target_probs[:, :K].gather(-1, draft_tokens[..., None]).squeeze(-1)
    q = draft_probs.gather(-1, draft_tokens[..., None]).squeeze(-1)
    n = (uniforms <= p / q).long().cumprod(-1).sum(-1)
    target_probs[:, :K] -= draft_probs
    target_probs[:, :K].clamp_(min=0)
    rows = torch.arange(B, device=draft_tokens.device)
    res = target_probs[rows, n]
    res = torch.where((n == K)[:, None], res, res / res.sum(-1, keepdim=True))
    return n, res
