# kata: speculative-decoding
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    tok = draft_tokens[..., None]
    q = draft_probs.gather(-1, tok)[..., 0]
    p = target_probs[:, 1:].gather(-1, tok)[..., 0]
    accepted = (uniforms <= p / q).long()
    num_accepted = accepted.cumprod(-1).sum(-1)

    rows = torch.arange(B, device=draft_tokens.device)
    at = num_accepted.clamp(max=K - 1)
    residual = torch.clamp(target_probs[rows, at] - draft_probs[rows, at], min=0)
    residual = residual / residual.sum(-1, keepdim=True)
    bonus = target_probs[:, -1]
    return num_accepted, torch.where((num_accepted == K)[:, None], bonus, residual)
