# kata: grad-accumulation
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    model.zero_grad(set_to_none=True)
    n_total = 0
    loss_sum = 0.0
    for input_ids, labels, loss_mask in micro_batches:
        n = int(loss_mask.sum())
        if n == 0:
            continue
        logits = model(input_ids)
        token_losses = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none")  # [b, T]
        summed = token_losses.masked_select(loss_mask).sum()
        summed.backward()
        loss_sum += summed.item()
        n_total += n
    with torch.no_grad():
        for p in model.parameters():
            if p.grad is not None:
                p.grad.div_(n_total)
    optimizer.step()
    return loss_sum / n_total
