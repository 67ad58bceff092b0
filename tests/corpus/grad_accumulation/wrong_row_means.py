# kata: grad-accumulation
# why: each sequence averaged over its own valid tokens, then the sequences averaged over every row of the batch
# mistake: per_sequence_mean
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    n_rows = sum(x.shape[0] for x, _, _ in micro_batches)
    optimizer.zero_grad()
    log = torch.zeros(())
    for x, y, keep in micro_batches:
        tok = F.cross_entropy(model(x).transpose(1, 2), y, reduction="none")
        keep = keep.float()
        per_seq = (tok * keep).sum(dim=1) / keep.sum(dim=1).clamp_min(1.0)
        loss = per_seq.sum() / n_rows
        loss.backward()
        log = log + loss.item()
    optimizer.step()
    return log.item()
