# kata: top-p
# why: right values, but written into the caller's logits with masked_fill_
# mistake: none
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    if 0 < top_k < logits.size(-1):
        logits.masked_fill_(logits < logits.topk(top_k).values[:, -1:], float("-inf"))
    if top_p < 1.0:
        sp, idx = logits.float().softmax(-1).sort(descending=True)
        remove = sp.cumsum(-1) - sp >= top_p
        logits.masked_fill_(remove.scatter(1, idx, remove), float("-inf"))
    return logits
