# kata: sample-token
# why: greedy picks the last of the tied maxima (>= in a running max)
# mistake: last_index_on_ties
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        best = logits.max(dim=-1, keepdim=True).values
        hits = (logits == best).long() * torch.arange(logits.size(-1), device=logits.device)
        return hits.max(dim=-1).values
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
