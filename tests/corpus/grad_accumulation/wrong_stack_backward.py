# kata: grad-accumulation
# why: every micro-batch's loss kept in a list, one backward over their sum after the loop
# mistake: summed_backward
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(mb[2].sum() for mb in micro_batches)
    optimizer.zero_grad()
    losses = []
    for input_ids, labels, loss_mask in micro_batches:
        logits = model(input_ids)
        losses.append(F.cross_entropy(logits[loss_mask], labels[loss_mask], reduction="sum") / N)
    total = torch.stack(losses).sum()
    total.backward()
    optimizer.step()
    return total.detach()
