# kata: sample-token
# why: torch.distributions.Categorical samples from the global RNG: the generator is never used
# mistake: global_rng
import torch
from torch.distributions import Categorical


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(-1)
    return Categorical(logits=logits.float() / temperature).sample()
