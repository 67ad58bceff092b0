# kata: sample-token
import torch


def sample_token(logits, temperature=1.0, generator=None):
    B, V = logits.shape
    if temperature == 0:
        # greedy: walk the row and remember the best index seen so far
        best = torch.zeros(B, dtype=torch.long, device=logits.device)
        best_val = logits[:, 0].clone()
        for j in range(1, V):
            better = logits[:, j] >= best_val
            best = torch.where(better, torch.full_like(best, j), best)
            best_val = torch.where(better, logits[:, j], best_val)
        return best

    z = logits.float() / temperature
    u = torch.rand(B, V, device=logits.device, generator=generator)
    gumbel = -torch.log(-torch.log(u))
    return torch.argmax(z + gumbel, dim=-1)
