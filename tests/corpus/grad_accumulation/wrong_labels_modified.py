# kata: grad-accumulation
# why: right maths, but the caller's labels are overwritten with -100 under the mask (masked_fill_ in place)
# mistake: none
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(int(m.sum()) for _, _, m in micro_batches)
    optimizer.zero_grad()
    total = 0.0
    for ids, labels, m in micro_batches:
        labels.masked_fill_(~m, -100)
        logits = model(ids)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100, reduction="sum") / N
        loss.backward()
        total += loss.item()
    optimizer.step()
    return total
