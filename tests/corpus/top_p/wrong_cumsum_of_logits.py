# kata: top-p
# why: forgets the softmax: the running total adds up sorted logits, not probabilities
# mistake: filters_logits_not_probabilities
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], float("-inf"))
    if top_p < 1.0:
        sorted_logits, idx = out.sort(descending=True)
        remove = sorted_logits.cumsum(-1) - sorted_logits >= top_p
        out = out.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
    return out
