# kata: grad-accumulation
# why: no skip for an empty micro-batch (its masked sum is 0, so its backward adds zeros), the loss returned as a Python float
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    total_valid = 0
    for _, _, mask in micro_batches:
        total_valid += int(mask.sum())
    model.zero_grad()
    log = 0.0
    for input_ids, labels, mask in micro_batches:
        out = model(input_ids)
        ce = F.cross_entropy(out.flatten(0, 1), labels.flatten(), reduction="none")
        part = (ce * mask.flatten()).sum() / total_valid
        part.backward()
        log += part.item()
    optimizer.step()
    return log
