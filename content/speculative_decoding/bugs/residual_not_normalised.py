# kata: speculative-decoding
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    num_accepted = torch.zeros(B, dtype=torch.long, device=draft_tokens.device)
    next_probs = torch.empty_like(target_probs[:, 0])
    for b in range(B):
        n = 0
        while n < K:
            x = draft_tokens[b, n]
            if uniforms[b, n] > target_probs[b, n, x] / draft_probs[b, n, x]:
                break
            n += 1
        num_accepted[b] = n
        if n == K:
            next_probs[b] = target_probs[b, K]
        else:
            next_probs[b] = torch.clamp(target_probs[b, n] - draft_probs[b, n], min=0)
    return num_accepted, next_probs
