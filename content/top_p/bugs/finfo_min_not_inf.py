# kata: top-p
import torch


class TopKTopPWarper:
    def __init__(self, top_k=0, top_p=1.0, min_tokens_to_keep=1):
        self.top_k = top_k
        self.top_p = top_p
        self.min_tokens_to_keep = min_tokens_to_keep

    def __call__(self, scores):
        filter_value = torch.finfo(scores.dtype).min
        if self.top_k > 0:
            top_k = min(max(self.top_k, self.min_tokens_to_keep), scores.size(-1))
            indices_to_remove = scores < torch.topk(scores, top_k)[0][..., -1, None]
            scores = scores.masked_fill(indices_to_remove, filter_value)

        if self.top_p < 1.0:
            sorted_logits, sorted_indices = torch.sort(scores, descending=False)
            cumulative_probs = sorted_logits.float().softmax(dim=-1).cumsum(dim=-1)
            # remove tokens with cumulative probability below 1 - top_p (the nucleus is the rest)
            sorted_indices_to_remove = cumulative_probs <= (1 - self.top_p)
            sorted_indices_to_remove[..., -self.min_tokens_to_keep:] = False
            indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
            scores = scores.masked_fill(indices_to_remove, filter_value)
        return scores


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    return TopKTopPWarper(top_k=top_k, top_p=top_p)(logits.clone())
