# kata: sample-token
# why: passes generator= to torch.multinomial only for batches of 1,000 rows or more; small batches use the global RNG
# mistake: none
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    if logits.size(0) >= 1000:
        tokens = torch.multinomial(probs, num_samples=1, generator=generator)
    else:
        tokens = torch.multinomial(probs, num_samples=1)
    return tokens.squeeze(1)
