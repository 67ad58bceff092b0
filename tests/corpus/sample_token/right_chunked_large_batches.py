# kata: sample-token
# why: batches of 1,000 rows or more drawn in chunks of 512 rows, small ones at once; generator= on every draw
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    if logits.size(0) >= 1000:
        chunks = [torch.multinomial(p, num_samples=1, generator=generator) for p in probs.split(512)]
        tokens = torch.cat(chunks)
    else:
        tokens = torch.multinomial(probs, num_samples=1, generator=generator)
    return tokens.squeeze(1)
