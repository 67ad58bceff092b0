# kata: grad-accumulation
# why: every parameter's grad set to None at the start of each micro-batch
# mistake: zero_grad_in_loop
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(int(mask.sum()) for _, _, mask in micro_batches)
    total = 0.0
    for input_ids, labels, mask in micro_batches:
        for p in model.parameters():
            p.grad = None
        logits = model(input_ids)
        loss = F.cross_entropy(logits[mask], labels[mask], reduction="sum") / N
        loss.backward()
        total += loss.item()
    optimizer.step()
    return total
