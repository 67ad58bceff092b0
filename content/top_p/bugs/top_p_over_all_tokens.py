# kata: top-p
import torch

NEG_INF = float("-inf")


def _top_k(logits, k):
    if k <= 0 or k >= logits.size(-1):
        return logits
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, NEG_INF)


def _top_p(logits, p):
    if p >= 1.0:
        return logits
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits
    probs = torch.softmax(x, dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    # a token goes when the tokens ranked above it already hold top_p
    mass_above = sorted_probs.cumsum(dim=-1) - sorted_probs
    sorted_drop = mass_above >= p
    drop = sorted_drop.scatter(-1, order, sorted_drop)
    return logits.masked_fill(drop, NEG_INF)


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = _top_p(logits.clone(), top_p)
    return _top_k(out, top_k)
