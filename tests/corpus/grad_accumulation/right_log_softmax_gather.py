# kata: grad-accumulation
# why: the token losses by hand (log_softmax and gather), the mask as a float weight, the 1/N folded into each micro-batch's sum
import torch


def accumulate_step(model, optimizer, micro_batches):
    N = sum(m.sum().item() for _, _, m in micro_batches)
    optimizer.zero_grad(set_to_none=False)
    running = torch.zeros((), device=next(model.parameters()).device)
    for x, y, m in micro_batches:
        logp = torch.log_softmax(model(x), dim=-1)
        nll = -logp.gather(-1, y.unsqueeze(-1)).squeeze(-1)
        loss = (nll * m.to(nll.dtype)).sum() / N
        loss.backward()
        running = running + loss.detach()
    optimizer.step()
    return running
