# kata: sample-token
# why: one uniform for the whole batch: every row with the same distribution draws the same token
# mistake: one_uniform
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    u = torch.rand((), generator=generator, device=logits.device)
    below = (probs.cumsum(dim=-1) < u).sum(dim=-1)
    return below.clamp(max=logits.size(-1) - 1)
