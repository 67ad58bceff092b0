# kata: sample-token
# why: returns multinomial's [B, 1] as it comes
# mistake: not_squeezed
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator)
