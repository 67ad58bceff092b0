# kata: top-p
# why: the classic cumsum > top_p shifted right by one: at an exact boundary it keeps one token too many
# mistake: keeps_one_more_at_equality
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], float("-inf"))
    if top_p < 1.0:
        sorted_logits, idx = out.sort(descending=True)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        remove = cum > top_p
        remove[:, 1:] = remove[:, :-1].clone()
        remove[:, 0] = False
        out = out.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
    return out
