# kata: speculative-decoding
import torch


def speculative_verify(draft_tokens, draft_probs, target_probs, uniforms):
    B, K = draft_tokens.shape
    q_i = draft_probs.gather(2, draft_tokens[:, :, None]).squeeze(2)
    p_i = target_probs[:, :K].gather(2, draft_tokens[:, :, None]).squeeze(2)
    probability_ratio = p_i / q_i
    is_accepted = uniforms <= probability_ratio
    n_matches = ((~is_accepted).cumsum(dim=-1) < 1).sum(dim=-1)
    p_prime = torch.empty_like(target_probs[:, 0])
    for b in range(B):
        n = int(n_matches[b])
        if n < K:
            p_n = torch.clamp(target_probs[b, n] - draft_probs[b, n], min=0)
            p_prime[b] = p_n / p_n.sum()
        else:
            p_prime[b] = target_probs[b, K]
    return n_matches, p_prime
