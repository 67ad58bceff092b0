# kata: grad-accumulation
# why: the micro-batch losses added into one running tensor, backward once after the loop
# mistake: summed_backward
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    n_tokens = 0
    for _, _, mask in micro_batches:
        n_tokens += mask.count_nonzero().item()
    optimizer.zero_grad()
    running = 0
    for tokens, targets, mask in micro_batches:
        logits = model(tokens)
        per_token = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")
        running = running + per_token.masked_select(mask).sum() / n_tokens
    running.backward()
    optimizer.step()
    return running.item()
