# kata: grad-accumulation
# why: sums with ignore_index backpropagated as they are; only the reported loss is divided by the token count
# mistake: sum_not_normalised
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    for p in model.parameters():
        p.grad = None
    seen, acc = 0, 0.0
    for ids, lab, msk in micro_batches:
        target = lab.clone()
        target[~msk] = -100
        out = model(ids)
        s = F.cross_entropy(out.permute(0, 2, 1), target, ignore_index=-100, reduction="sum")
        s.backward()
        acc += s.item()
        seen += msk.sum().item()
    optimizer.step()
    return acc / seen
