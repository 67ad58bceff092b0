# kata: grad-accumulation
# why: the micro-batches right-padded to one length and concatenated, then one forward and one backward over all of them
# mistake: concatenated
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    T = max(ids.shape[1] for ids, _, _ in micro_batches)

    def pad(t, value):
        return F.pad(t, (0, T - t.shape[1]), value=value)

    ids = torch.cat([pad(i, 0) for i, _, _ in micro_batches])
    labels = torch.cat([pad(l, 0) for _, l, _ in micro_batches])
    mask = torch.cat([pad(m, False) for _, _, m in micro_batches])
    optimizer.zero_grad()
    logits = model(ids)
    loss = F.cross_entropy(logits[mask], labels[mask])
    loss.backward()
    optimizer.step()
    return loss.detach()
