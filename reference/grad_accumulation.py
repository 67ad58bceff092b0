"""Gradient accumulation: one optimizer step over micro-batches, equal to the full-batch step on the token mean.

transformers' Trainer after its October 2024 fix (`num_items_in_batch`, `ForCausalLMLoss` →
`fixed_cross_entropy(..., reduction="sum") / num_items_in_batch`): every micro-batch's loss is its sum of
cross-entropies over its valid tokens divided by N, the valid tokens of the whole batch, so the gradients
accumulated over the micro-batches are those of L = (1/N)·Σ_i Σ_valid CE. The pre-fix Trainer divided each
micro-batch's mean by the number of accumulation steps: a mean of means, wrong whenever the counts n_i differ.
Each micro-batch's backward runs before the next forward, so one micro-batch's graph is alive at a time.
"""
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    """micro_batches: [(input_ids [b, T], labels [b, T], loss_mask [b, T] bool), ...]. Returns L (before the step)."""
    N = sum(int(mask.sum()) for _, _, mask in micro_batches)  # valid tokens of the whole batch
    assert N >= 1, "the batch has no valid token"
    optimizer.zero_grad(set_to_none=True)  # whatever the last batch left behind
    total = 0.0
    for input_ids, labels, loss_mask in micro_batches:
        if not bool(loss_mask.any()):
            continue  # nothing to learn from, and a mean over 0 tokens would be NaN
        logits = model(input_ids)  # (b, T, V)
        loss = F.cross_entropy(logits[loss_mask], labels[loss_mask], reduction="sum") / N  # (n_i, V) -> 0-dim
        loss.backward()  # this micro-batch's graph is freed here
        total += loss.detach()
    optimizer.step()
    return total
