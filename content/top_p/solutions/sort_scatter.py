# kata: top-p
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    V = out.shape[-1]
    if top_k and top_k < V:
        values, _ = torch.topk(out, top_k)
        out[out < values[..., -1:]] = float("-inf")
    if top_p < 1.0:
        sorted_logits, idx = torch.sort(out, descending=True, dim=-1)
        probs = sorted_logits.float().softmax(dim=-1)
        before = torch.cumsum(probs, dim=-1).roll(1, dims=-1)
        before[..., 0] = 0.0
        keep_sorted = before < top_p
        keep = torch.zeros_like(keep_sorted).scatter(-1, idx, keep_sorted)
        out = out.masked_fill(~keep, float("-inf"))
    return out
