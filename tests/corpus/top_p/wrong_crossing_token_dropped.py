# kata: top-p
# why: keeps tokens while the cumulative sum stays <= top_p: the token that crosses top_p is dropped
# mistake: crossing_token_dropped
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], float("-inf"))
    if top_p < 1.0:
        sp, idx = out.softmax(-1).sort(descending=True)
        remove = sp.cumsum(-1) > top_p
        remove[:, 0] = False
        out = out.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
    return out
