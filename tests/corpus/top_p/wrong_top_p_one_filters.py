# kata: top-p
# why: runs the top-p step even at top_p = 1.0: tokens after the running total rounds to 1.0 are removed
# mistake: top_p_one_still_filters
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], float("-inf"))
    sp, idx = out.float().softmax(-1).sort(descending=True)
    remove = sp.cumsum(-1) - sp >= top_p
    return out.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
