# kata: sample-token
# why: no T = 0 branch with multinomial: the softmax of logits / 0 is NaN and torch.multinomial raises (named from its crashes: the no_greedy variant raises alike)
# mistake: no_greedy
import torch


def sample_token(logits, temperature=1.0, generator=None):
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
