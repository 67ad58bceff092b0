# kata: grad-accumulation
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    counts = [int(mask.sum()) for _, _, mask in micro_batches]
    total_tokens = sum(counts)
    for p in model.parameters():
        p.grad = None
    reported = None
    for (ids, labels, mask), n in zip(micro_batches, counts):
        if n == 0:
            continue
        logits = model(ids)
        mean_loss = F.cross_entropy(logits[mask], labels[mask])
        share = mean_loss * (n / total_tokens)
        share.backward()
        reported = share.detach() if reported is None else reported + share.detach()
    optimizer.step()
    return reported
