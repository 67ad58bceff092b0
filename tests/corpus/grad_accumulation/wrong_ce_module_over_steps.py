# kata: grad-accumulation
# why: an nn.CrossEntropyLoss module (mean) on the selected tokens, divided by the accumulation steps; empty micro-batches skipped
# mistake: mean_of_means
import torch.nn as nn


class Accumulator:
    def __init__(self, steps):
        self.steps = steps
        self.criterion = nn.CrossEntropyLoss()

    def micro_loss(self, logits, labels, mask):
        return self.criterion(logits[mask], labels[mask]) / self.steps


def accumulate_step(model, optimizer, micro_batches):
    acc = Accumulator(len(micro_batches))
    optimizer.zero_grad()
    logged = 0.0
    for ids, labels, mask in micro_batches:
        if mask.sum() == 0:
            continue
        loss = acc.micro_loss(model(ids), labels, mask)
        loss.backward()
        logged += loss.item()
    optimizer.step()
    return logged
