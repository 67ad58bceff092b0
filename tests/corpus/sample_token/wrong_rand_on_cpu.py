# kata: sample-token
# why: Gumbel noise made with torch.rand(shape, generator=...) and no device=: a CUDA generator is refused there
# mistake: none
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    u = torch.rand(logits.shape, generator=generator).to(logits.device)
    return torch.argmax(logits.float() / temperature - torch.log(-torch.log(u)), dim=-1)
