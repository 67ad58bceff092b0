# kata: top-p
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    B, V = logits.shape
    x = logits
    if 0 < top_k < V:
        kth = x.topk(top_k, dim=-1).values[:, -1:]
        x = torch.where(x >= kth, x, torch.full_like(x, float("-inf")))
    if top_p < 1.0:
        s, _ = x.double().sort(dim=-1, descending=True)
        p = torch.softmax(s, dim=-1)
        n = ((p.cumsum(-1) - p) < top_p).sum(dim=-1, keepdim=True)  # how many the nucleus needs
        cut = s.gather(-1, n - 1).to(x.dtype)  # the crossing token's logit
        x = torch.where(x >= cut, x, torch.full_like(x, float("-inf")))
    return x.clone()
