# kata: grad-accumulation
# why: N taken as the rows times the lengths of every micro-batch (the padded size), the masked sum divided by it
# mistake: padded_tokens
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(ids.shape[0] * ids.shape[1] for ids, _, _ in micro_batches)
    optimizer.zero_grad()
    out = []
    for ids, labels, mask in micro_batches:
        ce = F.cross_entropy(model(ids).permute(0, 2, 1), labels, reduction="none")
        loss = torch.where(mask, ce, 0.0).sum() / N
        loss.backward()
        out.append(loss.detach())
    optimizer.step()
    return torch.stack(out).sum()
