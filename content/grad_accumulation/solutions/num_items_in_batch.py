# kata: grad-accumulation
import torch.nn.functional as F

IGNORE_INDEX = -100


def fixed_cross_entropy(logits, targets, num_items_in_batch):
    loss = F.cross_entropy(logits, targets, ignore_index=IGNORE_INDEX, reduction="sum")
    return loss / num_items_in_batch


def accumulate_step(model, optimizer, micro_batches):
    num_items_in_batch = sum(mask.sum() for _, _, mask in micro_batches)
    optimizer.zero_grad()
    tr_loss = 0.0
    for input_ids, labels, loss_mask in micro_batches:
        targets = labels.masked_fill(~loss_mask, IGNORE_INDEX)
        logits = model(input_ids)
        vocab = logits.shape[-1]
        loss = fixed_cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1), num_items_in_batch)
        loss.backward()
        tr_loss = tr_loss + loss.detach()
    optimizer.step()
    return tr_loss
