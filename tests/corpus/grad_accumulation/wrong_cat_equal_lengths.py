# kata: grad-accumulation
# why: every micro-batch's rows gathered into one list of sequences, padded with pad_sequence, one forward
# mistake: concatenated
import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence


def accumulate_step(model, optimizer, micro_batches):
    ids = pad_sequence([row for mb in micro_batches for row in mb[0]], batch_first=True)
    labels = pad_sequence([row for mb in micro_batches for row in mb[1]], batch_first=True)
    mask = pad_sequence([row for mb in micro_batches for row in mb[2]], batch_first=True)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(ids)[mask], labels[mask], reduction="sum") / mask.sum()
    loss.backward()
    optimizer.step()
    return loss.item()
