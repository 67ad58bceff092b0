# kata: speculative-decoding
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    idx = draft_tokens.unsqueeze(-1)
    p = target_probs[:, :K].gather(-1, idx).squeeze(-1)
    q = draft_probs.gather(-1, idx).squeeze(-1)
    accept = (uniforms * q <= p).long()
    n = accept.cumprod(-1).sum(-1)
    rows = torch.arange(B, device=draft_tokens.device)
    pos = torch.clamp(n, max=K - 1)
    resid = torch.relu(target_probs[rows, pos] - draft_probs[rows, pos])
    resid = resid / resid.sum(-1, keepdim=True).clamp_min(torch.finfo(resid.dtype).tiny)
    nxt = torch.where((n == K).unsqueeze(-1), target_probs[:, K], resid)
    return n, nxt
