# kata: top-p
# why: fills removed entries with -1e9, the attention-mask habit
# mistake: none
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], -1e9)
    if top_p < 1.0:
        sp, idx = out.float().softmax(-1).sort(descending=True)
        remove = sp.cumsum(-1) - sp >= top_p
        out = out.masked_fill(remove.scatter(1, idx, remove), -1e9)
    return out
