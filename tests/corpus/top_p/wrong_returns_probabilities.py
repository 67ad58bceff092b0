# kata: top-p
# why: returns the renormalised probabilities of the survivors instead of the filtered logits
# mistake: returns_probabilities
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], float("-inf"))
    if top_p < 1.0:
        sp, idx = out.softmax(-1).sort(descending=True)
        remove = sp.cumsum(-1) - sp >= top_p
        out = out.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
    return out.softmax(-1)
