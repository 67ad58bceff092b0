# kata: grad-accumulation
# why: the NLL as an einsum with a one-hot of the labels, torch.where for the mask, N as a tensor, the losses stacked at the end
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    denom = torch.stack([mb[2].sum() for mb in micro_batches]).sum()
    optimizer.zero_grad()
    losses = []
    for input_ids, labels, loss_mask in micro_batches:
        logits = model(input_ids)
        logp = F.log_softmax(logits, dim=-1)
        onehot = F.one_hot(labels, logits.shape[-1]).to(logp.dtype)
        nll = -torch.einsum("btv,btv->bt", logp, onehot)
        nll = torch.where(loss_mask, nll, torch.zeros_like(nll))
        micro_loss = nll.sum() / denom
        micro_loss.backward()
        losses.append(micro_loss.detach())
    optimizer.step()
    return torch.stack(losses).sum()
