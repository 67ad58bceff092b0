# kata: grad-accumulation
# why: the loss over every position of every row, as if no token were masked, normalised by the positions
# mistake: mask_ignored
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    positions = sum(ids.numel() for ids, _, _ in micro_batches)
    optimizer.zero_grad()
    total = 0
    for ids, labels, _ in micro_batches:
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), reduction="sum") / positions
        loss.backward()
        total = total + loss.detach()
    optimizer.step()
    return total
