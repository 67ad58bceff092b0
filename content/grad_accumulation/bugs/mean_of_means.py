# kata: grad-accumulation
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    num_steps = len(micro_batches)
    num_tokens = sum(int(mask.sum()) for _, _, mask in micro_batches)
    optimizer.zero_grad()
    total = torch.zeros((), device=next(model.parameters()).device)
    for input_ids, labels, mask in micro_batches:
        n = int(mask.sum())
        if n == 0:
            continue
        logits = model(input_ids)
        ce = F.cross_entropy(logits[mask], labels[mask], reduction="sum")
        loss = ce / n / num_steps
        loss.backward()
        total += ce.detach() / num_tokens
    optimizer.step()
    return total
