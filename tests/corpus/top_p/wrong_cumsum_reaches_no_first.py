# kata: top-p
# why: keeps the tokens whose running sum stays below top_p: the crossing token goes, and a first token above top_p too
# mistake: crossing_token_dropped_at_reach_no_first
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    if 0 < top_k < out.shape[1]:
        out[out < torch.topk(out, top_k, dim=1).values[:, -1:]] = float("-inf")
    if top_p < 1.0:
        p = torch.softmax(out.double(), dim=1)
        sp, idx = torch.sort(p, dim=1, descending=True)
        keep_sorted = torch.cumsum(sp, dim=1) < top_p
        keep = torch.zeros_like(keep_sorted).scatter(1, idx, keep_sorted)
        out = torch.where(keep, out, torch.full_like(out, float("-inf")))
    return out
