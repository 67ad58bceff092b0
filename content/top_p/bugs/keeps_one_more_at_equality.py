# kata: top-p
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    filtered = logits.clone()
    V = logits.size(-1)

    if 0 < top_k < V:
        kth = torch.topk(filtered, top_k, dim=-1).values[..., -1:]
        filtered = filtered.masked_fill(filtered < kth, float("-inf"))

    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(filtered, dim=-1, descending=True)
        cum_probs = torch.softmax(sorted_logits.float(), dim=-1).cumsum(dim=-1)

        # remove tokens once the cumulative probability is above top_p
        sorted_remove = cum_probs > top_p
        # shift right so the first token above the threshold is kept too
        sorted_remove[..., 1:] = sorted_remove[..., :-1].clone()
        sorted_remove[..., 0] = False

        remove = sorted_remove.scatter(-1, sorted_idx, sorted_remove)
        filtered = filtered.masked_fill(remove, float("-inf"))
    return filtered
