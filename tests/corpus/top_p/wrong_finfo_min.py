# kata: top-p
# why: fills removed entries with torch.finfo(dtype).min instead of -inf
# mistake: finfo_min_not_inf
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    fill = torch.finfo(logits.dtype).min
    out = logits.clone()
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], fill)
    if top_p < 1.0:
        sp, idx = out.float().softmax(-1).sort(descending=True)
        remove = sp.cumsum(-1) - sp >= top_p
        out = out.masked_fill(remove.scatter(1, idx, remove), fill)
    return out
