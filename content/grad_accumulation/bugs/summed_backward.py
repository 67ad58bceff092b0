# kata: grad-accumulation
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(mask.sum() for _, _, mask in micro_batches)
    optimizer.zero_grad()
    loss = 0.0
    for input_ids, labels, mask in micro_batches:
        logits = model(input_ids)
        token_loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), reduction="none")
        loss = loss + (token_loss * mask.flatten()).sum() / N
    loss.backward()
    optimizer.step()
    return loss.detach()
