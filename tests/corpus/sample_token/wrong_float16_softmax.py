# kata: sample-token
# why: softmax in the input's own dtype: float16 logits of ±1e4 divided by T = 0.1 overflow to ±inf, then NaN
# mistake: none
import torch


def sample_token(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    probs = torch.softmax(logits / temperature, dim=-1)
    return torch.multinomial(probs.float(), num_samples=1, generator=generator).squeeze(1)
