# kata: top-p
# why: a loop that stops adding tokens once the running sum would reach top_p: the crossing token is never kept
# mistake: crossing_token_dropped_at_reach
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    B, V = out.shape
    for b in range(B):
        row = out[b]
        if 0 < top_k < V:
            kth = torch.topk(row, top_k).values[-1]
            row[row < kth] = float("-inf")
        if top_p < 1.0:
            p = torch.softmax(row.double(), dim=-1)
            order = torch.argsort(p, descending=True)
            keep = torch.zeros(V, dtype=torch.bool)
            total = 0.0
            for j, i in enumerate(order.tolist()):
                total += float(p[i])
                if j > 0 and total >= top_p:
                    break
                keep[i] = True
            row[~keep.to(row.device)] = float("-inf")
    return out
