# kata: sample-token
# why: divides the probabilities by T; multinomial renormalises, so the temperature has no effect
# mistake: temperature_after_softmax
import torch
import torch.nn.functional as F


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0.0:
        return torch.argmax(logits, dim=1)
    probs = F.softmax(logits.float(), dim=1) / temperature
    return torch.multinomial(probs, num_samples=1, generator=generator)[:, 0]
