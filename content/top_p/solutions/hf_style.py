# kata: top-p
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    scores = logits
    if top_k > 0:
        k = min(top_k, scores.size(-1))
        remove = scores < torch.topk(scores, k)[0][..., -1, None]
        scores = scores.masked_fill(remove, float("-inf"))
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(scores, descending=False)
        cumulative = sorted_logits.float().softmax(dim=-1).cumsum(dim=-1)
        sorted_remove = cumulative <= (1 - top_p)
        sorted_remove[..., -1:] = False  # min_tokens_to_keep = 1
        remove = sorted_remove.scatter(1, sorted_indices, sorted_remove)
        scores = scores.masked_fill(remove, float("-inf"))
    return scores.clone()
