# kata: sample-token
# why: Gumbel-max: argmax(logits / T + Gumbel noise), the noise drawn from the generator on logits' device
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(-1)
    z = logits.to(torch.float32) / temperature
    u = torch.rand(z.shape, device=z.device, generator=generator).clamp_min(1e-20)
    gumbel = -torch.log(-torch.log(u))
    return torch.argmax(z + gumbel, dim=-1)
