# kata: speculative-decoding
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    p = torch.gather(target_probs[:, :K], 2, draft_tokens[:, :, None])[:, :, 0]
    q = torch.gather(draft_probs, 2, draft_tokens[:, :, None])[:, :, 0]
    ok = (uniforms * q <= p).long()
    n = torch.cumprod(ok, dim=1).sum(dim=1)
    # the row we continue from: the first rejected position
    stop = torch.clamp(n, max=K - 1)
    b = torch.arange(B, device=draft_tokens.device)
    p_n, q_n = target_probs[b, stop], draft_probs[b, stop]
    resid = torch.relu(p_n - q_n)
    resid = resid / resid.sum(dim=1, keepdim=True)
    out = torch.where((n == K).unsqueeze(1), p_n, resid)
    return n, out
