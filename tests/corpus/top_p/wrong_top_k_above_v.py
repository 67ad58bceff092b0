# kata: top-p
# why: calls torch.topk(logits, top_k) without checking top_k <= V: raises when top_k > V
# mistake: none
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if top_k > 0:
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], float("-inf"))
    if top_p < 1.0:
        sp, idx = out.float().softmax(-1).sort(descending=True)
        remove = sp.cumsum(-1) - sp >= top_p
        out = out.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
    return out
