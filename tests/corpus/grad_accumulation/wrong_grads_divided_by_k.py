# kata: grad-accumulation
# why: sums backpropagated, then every gradient divided by the number of micro-batches before the step
# mistake: divided_by_count
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    optimizer.zero_grad()
    summed, n = 0.0, 0
    for ids, labels, mask in micro_batches:
        s = F.cross_entropy(model(ids)[mask], labels[mask], reduction="sum")
        s.backward()
        summed += s.item()
        n += int(mask.sum())
    with torch.no_grad():
        for p in model.parameters():
            p.grad /= len(micro_batches)
    optimizer.step()
    return summed / n
