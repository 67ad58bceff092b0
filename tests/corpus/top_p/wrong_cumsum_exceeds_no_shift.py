# kata: top-p
# why: Hugging Face's TopP without the shift to the right: remove = cumsum > top_p drops the crossing token (and can drop all)
# mistake: crossing_token_dropped_no_first
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    scores = logits.clone()
    if top_k > 0 and top_k < scores.size(-1):
        indices_to_remove = scores < torch.topk(scores, top_k)[0][..., -1, None]
        scores = scores.masked_fill(indices_to_remove, float("-inf"))
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(scores, descending=True)
        cumulative_probs = sorted_logits.float().softmax(dim=-1).cumsum(dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        scores = scores.masked_fill(indices_to_remove, float("-inf"))
    return scores
