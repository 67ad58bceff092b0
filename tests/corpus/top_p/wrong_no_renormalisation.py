# kata: top-p
# why: top-p measures mass with the softmax of the original logits, ignoring what top-k removed
# mistake: top_p_over_all_tokens
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    probs = logits.softmax(-1)
    if 0 < top_k < out.size(-1):
        out = out.masked_fill(out < out.topk(top_k).values[:, -1:], float("-inf"))
        probs = probs.masked_fill(out == float("-inf"), 0.0)
    if top_p < 1.0:
        sp, idx = probs.sort(descending=True)
        remove = sp.cumsum(-1) - sp >= top_p
        out = out.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
    return out
