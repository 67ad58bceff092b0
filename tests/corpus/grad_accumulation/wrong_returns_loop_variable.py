# kata: grad-accumulation
# why: the step is right, but the function returns the loss variable left over from the loop's last micro-batch
# mistake: last_loss_returned
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    total_tokens = sum(int(m.sum()) for *_, m in micro_batches)
    optimizer.zero_grad()
    for ids, labels, m in micro_batches:
        logits = model(ids)
        loss = F.cross_entropy(logits[m], labels[m], reduction="sum") / total_tokens
        loss.backward()
    optimizer.step()
    return loss.detach()
