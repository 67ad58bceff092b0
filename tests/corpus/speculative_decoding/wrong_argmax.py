# kata: speculative-decoding
# why: takes the ratio at the draft distribution's argmax instead of the drafted token
# mistake: ratio_at_draft_argmax
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    best = draft_probs.argmax(-1, keepdim=True)
    p = target_probs[:, :K].gather(-1, best).squeeze(-1)
    q = draft_probs.gather(-1, best).squeeze(-1)
    n = (uniforms <= p / q).long().cumprod(-1).sum(-1)
    rows = torch.arange(B, device=draft_tokens.device)
    at = n.clamp(max=K - 1)
    res = (target_probs[rows, at] - draft_probs[rows, at]).clamp(min=0)
    res = res / res.sum(-1, keepdim=True)
    return n, torch.where((n == K)[:, None], target_probs[:, K], res)
