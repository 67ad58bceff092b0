# kata: grad-accumulation
# why: model.zero_grad() at the top of every micro-batch, so only the last one's gradient reaches the step
# mistake: zero_grad_in_loop
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = 0
    for _, _, mask in micro_batches:
        N += mask.sum().item()
    loss_value = 0.0
    for i, (input_ids, labels, mask) in enumerate(micro_batches):
        model.zero_grad()
        ce = F.cross_entropy(model(input_ids).flatten(0, 1), labels.flatten(), reduction="none")
        loss = ce[mask.flatten()].sum() / N
        loss.backward()
        loss_value += loss.item()
    optimizer.step()
    return loss_value
