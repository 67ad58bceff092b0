# kata: speculative-decoding
# why: a loop per sequence and per draft, as Algorithm 1 reads, with min(1, p/q) and a strict <
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    counts = []
    dists = []
    for b in range(B):
        n = 0
        for i in range(K):
            x = draft_tokens[b, i]
            ratio = torch.clamp(target_probs[b, i, x] / draft_probs[b, i, x], max=1.0)
            if uniforms[b, i] < ratio:
                n += 1
            else:
                break
        if n == K:
            dist = target_probs[b, K].clone()
        else:
            diff = (target_probs[b, n] - draft_probs[b, n]).clamp(min=0)
            dist = diff / diff.sum()
        counts.append(n)
        dists.append(dist)
    return torch.tensor(counts, dtype=torch.long, device=draft_tokens.device), torch.stack(dists)
