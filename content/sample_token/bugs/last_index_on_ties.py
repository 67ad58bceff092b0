# kata: sample-token
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        order = torch.sort(logits, dim=-1, stable=True).indices
        return order[:, -1]
    z = logits.float() / temperature
    u = torch.rand(z.shape, device=z.device, generator=generator)
    return torch.argmax(z - torch.log(-torch.log(u)), dim=-1)
