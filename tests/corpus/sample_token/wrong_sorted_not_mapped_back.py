# kata: sample-token
# why: samples in the sorted order and returns the position there, not the token id
# mistake: sorted_not_mapped_back
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    sorted_logits, sorted_idx = torch.sort(logits.float() / temperature, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
