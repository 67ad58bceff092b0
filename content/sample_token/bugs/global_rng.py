# kata: sample-token
import torch


def gumbel_noise(shape, device, generator=None):
    u = torch.rand(shape, device=device).clamp_(min=1e-10, max=1.0 - 1e-7)
    return -torch.log(-torch.log(u))


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    z = logits.float() / temperature
    return torch.argmax(z + gumbel_noise(z.shape, z.device, generator), dim=-1)
