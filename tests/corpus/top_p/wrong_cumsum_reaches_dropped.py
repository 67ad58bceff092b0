# kata: top-p
# why: removes where the running sum reaches top_p (cumsum >= top_p), keeping the first token: the crossing token goes
# mistake: crossing_token_dropped_at_reach
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    filtered = logits.clone()
    V = filtered.shape[-1]
    if 0 < top_k < V:
        kth = torch.topk(filtered, top_k, dim=-1).values[..., -1, None]
        filtered[filtered < kth] = float("-inf")
    if top_p < 1.0:
        half = filtered.dtype in (torch.float16, torch.bfloat16)
        probs = torch.softmax(filtered.float() if half else filtered, dim=-1)
        sorted_probs, sorted_idx = torch.sort(probs, dim=-1, descending=True)
        cumulative = torch.cumsum(sorted_probs, dim=-1)
        to_remove = cumulative >= top_p
        to_remove[..., 0] = False
        mask = torch.zeros_like(to_remove).scatter(-1, sorted_idx, to_remove)
        filtered = filtered.masked_fill(mask, float("-inf"))
    return filtered
