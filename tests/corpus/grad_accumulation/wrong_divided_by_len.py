# kata: grad-accumulation
# why: each micro-batch's summed token loss scaled by 1 / len(micro_batches)
# mistake: divided_by_count
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    k = len(micro_batches)
    model.zero_grad()
    parts = []
    for input_ids, labels, loss_mask in micro_batches:
        logp = F.log_softmax(model(input_ids), dim=-1)
        picked = logp.gather(2, labels[..., None])[..., 0]
        loss = -(picked * loss_mask).sum() / k
        loss.backward()
        parts.append(loss.detach())
    optimizer.step()
    return torch.stack(parts).sum()
