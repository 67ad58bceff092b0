# kata: grad-accumulation
# why: each micro-batch's mean weighted by its share n_i / N, with no guard for a micro-batch without valid tokens
# mistake: nan_on_empty
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    sizes = [mask.sum() for _, _, mask in micro_batches]
    N = sum(sizes)
    optimizer.zero_grad()
    total = 0.0
    for (ids, labels, mask), n in zip(micro_batches, sizes):
        logits = model(ids)
        mean = F.cross_entropy(logits[mask], labels[mask])
        weighted = mean * n / N
        weighted.backward()
        total = total + weighted.detach()
    optimizer.step()
    return total
