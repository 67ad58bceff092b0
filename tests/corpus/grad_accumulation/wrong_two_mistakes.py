# kata: grad-accumulation
# why: a mean of micro-batch means and a step after every micro-batch: two mistakes at once, no single name
# mistake: none
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    optimizer.zero_grad()
    losses = []
    for ids, labels, mask in micro_batches:
        if mask.sum() == 0:
            continue
        loss = F.cross_entropy(model(ids)[mask], labels[mask]) / len(micro_batches)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return sum(losses)
