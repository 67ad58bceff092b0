# kata: grad-accumulation
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    n_valid = sum(int(mask.sum()) for _, _, mask in micro_batches)
    loss_total = 0.0
    for input_ids, labels, mask in micro_batches:
        if not mask.any():
            continue
        optimizer.zero_grad()
        logits = model(input_ids)
        loss = F.cross_entropy(logits[mask], labels[mask], reduction="sum") / n_valid
        loss.backward()
        loss_total += loss.item()
    optimizer.step()
    return loss_total
