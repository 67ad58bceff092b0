# kata: speculative-decoding
# why: the residual takes q - p
# mistake: residual_reversed
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    p = target_probs[:, :K].gather(-1, draft_tokens[..., None]).squeeze(-1)
    q = draft_probs.gather(-1, draft_tokens[..., None]).squeeze(-1)
    n = (uniforms <= p / q).long().cumprod(-1).sum(-1)
    out = target_probs[:, K].clone()
    for b in range(B):
        if n[b] < K:
            r = torch.relu(draft_probs[b, n[b]] - target_probs[b, n[b]])
            out[b] = r / r.sum()
    return n, out
