# kata: grad-accumulation
# why: grads set to None by hand, sums accumulated, then every grad scaled by 1/N with mul_ under no_grad; float64 maths for the count
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    params = [p for p in model.parameters()]
    for p in params:
        p.grad = None
    n_tok = 0
    total = None
    for ids, tgt, keep in micro_batches:
        logits = model(ids)
        s = F.cross_entropy(logits[keep], tgt[keep], reduction="sum")
        if keep.any():
            s.backward()
        n_tok += int(keep.sum())
        total = s.detach() if total is None else total + s.detach()
    scale = 1.0 / n_tok
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.grad.mul_(scale)
    optimizer.step()
    return total * scale
