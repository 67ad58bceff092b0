# kata: sample-token
# why: divides the caller's logits in place (logits /= temperature)
# mistake: logits_in_place
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits /= temperature
    return torch.multinomial(logits.float().softmax(-1), 1, generator=generator).squeeze(-1)
