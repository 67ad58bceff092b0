# kata: top-p
# why: sort() without descending=True: the nucleus is built from the least likely tokens up
# mistake: ascending_sort
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        kth = out.topk(top_k, dim=-1).values[:, -1:]
        out = out.masked_fill(out < kth, float("-inf"))
    if top_p < 1.0:
        probs = out.float().softmax(dim=-1)
        sorted_p, order = probs.sort(dim=-1)
        before = sorted_p.cumsum(dim=-1) - sorted_p
        drop = before >= top_p
        out = out.masked_fill(drop.scatter(-1, order, drop), float("-inf"))
    return out
