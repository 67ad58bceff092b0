# kata: sample-token
import torch
import torch.nn.functional as F


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)

    # sample in float32 even for half-precision logits
    probs = F.softmax(logits.float(), dim=-1)
    probs = probs / temperature
    next_tokens = torch.multinomial(probs, num_samples=1, generator=generator)
    return next_tokens.squeeze(1)
