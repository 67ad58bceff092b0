# kata: grad-accumulation
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    counts = [int(mask.sum()) for _, _, mask in micro_batches]
    N = sum(counts)
    optimizer.zero_grad()
    reported = 0.0
    for (input_ids, labels, mask), n in zip(micro_batches, counts):
        logits = model(input_ids)
        loss = F.cross_entropy(logits[mask], labels[mask]) * (n / N)
        loss.backward()
        reported = reported + loss.detach()
    optimizer.step()
    return reported
