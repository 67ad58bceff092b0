# kata: grad-accumulation
# why: the masked sum divided by the number of cells of the masks (padding counted), not by the valid tokens
# mistake: padded_tokens
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    denominator = 0
    for batch in micro_batches:
        denominator += batch[2].numel()
    optimizer.zero_grad()
    out = 0.0
    for batch in micro_batches:
        input_ids, labels, loss_mask = batch
        ce = F.cross_entropy(model(input_ids).transpose(1, 2), labels, reduction="none")
        loss = ce.masked_fill(~loss_mask, 0.0).sum() / denominator
        loss.backward()
        out += loss.item()
    optimizer.step()
    return out
