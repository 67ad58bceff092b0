# kata: speculative-decoding
# why: counts every accepted draft, so an acceptance after a rejection is counted too
# mistake: every_accept_counted
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    p = torch.gather(target_probs[:, :K], 2, draft_tokens.unsqueeze(2)).squeeze(2)
    q = torch.gather(draft_probs, 2, draft_tokens.unsqueeze(2)).squeeze(2)
    accepted = (uniforms <= p / q).sum(dim=1)
    rows = torch.arange(B, device=draft_tokens.device)
    at = accepted.clamp(max=K - 1)
    res = torch.clamp(target_probs[rows, at] - draft_probs[rows, at], min=0)
    res = res / res.sum(dim=-1, keepdim=True)
    out = torch.where((accepted == K).unsqueeze(1), target_probs[:, K], res)
    return accepted, out
