# kata: speculative-decoding
# why: divides the draft's probability by the target's
# mistake: ratio_inverted
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    t = draft_tokens[..., None]
    p = target_probs[:, :-1].gather(-1, t)[..., 0]
    q = draft_probs.gather(-1, t)[..., 0]
    ok = uniforms <= q / p
    n = ok.long().cumprod(1).sum(1)
    b = torch.arange(B, device=draft_tokens.device)
    j = n.clamp(max=K - 1)
    r = (target_probs[b, j] - draft_probs[b, j]).clamp(min=0)
    r = r / r.sum(-1, keepdim=True)
    return n, torch.where(n[:, None] == K, target_probs[:, K], r)
