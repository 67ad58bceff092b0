# kata: top-p
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    B, V = logits.shape
    for b in range(B):
        row = out[b]
        if 0 < top_k < V:
            kth = torch.topk(row, top_k).values[-1]
            row[row < kth] = float("-inf")

        if top_p < 1.0:
            x = row.float() if row.dtype in (torch.float16, torch.bfloat16) else row
            probs, order = torch.softmax(x, dim=-1).sort(descending=True)
            cum = probs.cumsum(dim=-1)
            n_keep = max(1, int((cum <= top_p).sum()))
            row[order[n_keep:]] = float("-inf")
    return out
