# kata: grad-accumulation
# why: the loss accumulated as a Python float and returned as torch.tensor(total): a CPU tensor when the model is on a GPU
# mistake: loss_without_device
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    n = sum(mask.sum().item() for _, _, mask in micro_batches)
    optimizer.zero_grad()
    total = 0.0
    for tokens, targets, mask in micro_batches:
        logits = model(tokens)
        loss = F.cross_entropy(logits[mask], targets[mask], reduction="sum") / n
        loss.backward()
        total += loss.item()
    optimizer.step()
    return torch.tensor(total)
