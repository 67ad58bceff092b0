# kata: grad-accumulation
# why: the optimizer steps at the end of every micro-batch (gradients zeroed once, before the loop)
# mistake: step_every_micro_batch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(int(m.sum()) for _, _, m in micro_batches)
    optimizer.zero_grad()
    reported = 0.0
    for ids, labels, m in micro_batches:
        if not m.any():
            continue
        loss = F.cross_entropy(model(ids)[m], labels[m], reduction="sum") / N
        loss.backward()
        optimizer.step()
        reported += loss.item()
    return reported
