# kata: sample-token
# why: scales the logits by T instead of dividing (T = 0.5 then flattens instead of sharpening)
# mistake: temperature_multiplied
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    scaled = logits.float() * temperature
    probs = torch.softmax(scaled, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).view(-1)
