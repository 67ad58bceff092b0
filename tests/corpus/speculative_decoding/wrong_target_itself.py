# kata: speculative-decoding
# why: after a rejection samples from the target row p_n itself
# mistake: residual_is_target
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    p = target_probs[:, :K].gather(-1, draft_tokens[..., None]).squeeze(-1)
    q = draft_probs.gather(-1, draft_tokens[..., None]).squeeze(-1)
    n = (uniforms <= p / q).long().cumprod(-1).sum(-1)
    rows = torch.arange(B, device=draft_tokens.device)
    return n, target_probs[rows, n]
