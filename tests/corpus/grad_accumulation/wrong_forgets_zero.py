# kata: grad-accumulation
# why: right normalisation, but whatever was in .grad before the call is stepped too
# mistake: no_zero_grad
import torch


def accumulate_step(model, optimizer, micro_batches):
    n_valid = torch.stack([mask.sum() for _, _, mask in micro_batches]).sum()
    running = 0.0
    for input_ids, labels, mask in micro_batches:
        logits = model(input_ids)
        lse = torch.logsumexp(logits, dim=-1)
        target = logits.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
        loss = ((lse - target) * mask).sum() / n_valid
        loss.backward()
        running = running + loss.detach()
    optimizer.step()
    return running
