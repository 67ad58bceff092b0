# kata: sample-token
# why: the textbook answer, as transformers' _sample writes it: softmax then torch.multinomial
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    return torch.multinomial(probs, num_samples=1, generator=generator).squeeze(1)
