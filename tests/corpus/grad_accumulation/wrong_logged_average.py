# kata: grad-accumulation
# why: the step is right, but the reported loss is the average of the micro-batches' own means (empty ones left out)
# mistake: mean_of_means_returned
import statistics

import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    N = sum(int(mask.sum()) for _, _, mask in micro_batches)
    optimizer.zero_grad()
    means = []
    for input_ids, labels, mask in micro_batches:
        n = int(mask.sum())
        if n == 0:
            continue
        summed = F.cross_entropy(model(input_ids)[mask], labels[mask], reduction="sum")
        (summed / N).backward()
        means.append(summed.item() / n)
    optimizer.step()
    return statistics.fmean(means)
