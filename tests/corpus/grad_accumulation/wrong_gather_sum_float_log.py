# kata: grad-accumulation
# why: hand-written NLL summed over the valid tokens and backpropagated without any division; the log divides by N
# mistake: sum_not_normalised
import torch


def accumulate_step(model, optimizer, micro_batches):
    optimizer.zero_grad(set_to_none=True)
    nll_total, count = 0.0, 0
    for x, y, m in micro_batches:
        logp = torch.log_softmax(model(x), -1)
        nll = -torch.take_along_dim(logp, y[..., None], dim=-1).squeeze(-1)
        s = nll[m].sum()
        s.backward()
        nll_total += float(s.detach())
        count += int(m.sum())
    optimizer.step()
    return nll_total / count
