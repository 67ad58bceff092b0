# kata: sample-token
# why: the softmax runs over dim 0, across the batch, not over the vocabulary
# mistake: softmax_over_batch
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(logits.float() / temperature, dim=0)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
