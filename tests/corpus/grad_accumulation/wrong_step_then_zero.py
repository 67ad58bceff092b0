# kata: grad-accumulation
# why: the usual training loop body run per micro-batch: zero_grad, backward, step, each time
# mistake: step_every_micro_batch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(m.sum() for _, _, m in micro_batches)
    history = []
    for input_ids, labels, m in micro_batches:
        optimizer.zero_grad()
        logits = model(input_ids)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), reduction="none")
        loss = (loss * m.flatten()).sum() / N
        loss.backward()
        optimizer.step()
        history.append(loss.detach())
    return sum(history)
