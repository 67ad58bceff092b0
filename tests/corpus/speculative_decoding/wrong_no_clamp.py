# kata: speculative-decoding
# why: normalises p - q by the mass where p > q but never clamps the negative entries away
# mistake: residual_not_clamped
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    p = target_probs[:, :K].gather(-1, draft_tokens[..., None]).squeeze(-1)
    q = draft_probs.gather(-1, draft_tokens[..., None]).squeeze(-1)
    n = (uniforms <= p / q).long().cumprod(-1).sum(-1)
    nxt = []
    for b in range(B):
        k = int(n[b])
        if k == K:
            nxt.append(target_probs[b, K])
        else:
            diff = target_probs[b, k] - draft_probs[b, k]
            nxt.append(diff / diff[diff > 0].sum())
    return n, torch.stack(nxt)
