# kata: grad-accumulation
# why: the Trainer before its fix: each micro-batch's mean (ignore_index -100) divided by gradient_accumulation_steps
# mistake: mean_of_means
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    gradient_accumulation_steps = len(micro_batches)
    optimizer.zero_grad()
    tr_loss = 0.0
    for inputs, labels, loss_mask in micro_batches:
        labels = labels.masked_fill(~loss_mask, -100)
        logits = model(inputs)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
        loss = loss / gradient_accumulation_steps
        loss.backward()
        tr_loss += loss.detach()
    optimizer.step()
    return tr_loss
