"""Top-k, then top-p (nucleus) filtering of next-token logits.

Holtzman et al., "The Curious Case of Neural Text Degeneration" (ICLR 2020), §3.1 eq. 2: the top-p
vocabulary V(p) is the smallest set with sum_{x in V(p)} P(x) >= p, the most likely tokens first.
A token is in it exactly when the tokens more likely than it hold less than p, so the token
whose probability crosses p is kept and at least one token always is. Top-k (Fan et al. 2018)
runs first and top-p renormalises over what it kept, the order of transformers' generate().
Removed logits become -inf, so a softmax afterwards gives them probability 0.
"""
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    """logits: [B, V] (-inf = already banned). Returns new logits [B, V]: kept values unchanged, others -inf."""
    assert logits.dim() == 2, f"expected logits [B, V], got shape {tuple(logits.shape)}"
    assert top_k >= 0 and 0 < top_p <= 1, f"top_k must be >= 0 and top_p in (0, 1], got {top_k}, {top_p}"
    out = logits.clone()  # the input stays as it was
    V = logits.size(-1)
    if 0 < top_k < V:
        kth = torch.topk(out, top_k, dim=-1).values[:, -1:]  # (B, 1) the k-th largest logit
        out = out.masked_fill(out < kth, float("-inf"))  # ties with the k-th logit all stay
    if top_p < 1.0:  # 1.0 is off: not even tokens of probability 0 are removed
        half = out.dtype in (torch.float16, torch.bfloat16)
        probs = torch.softmax(out.float() if half else out, dim=-1)  # (B, V) renormalised over the top-k survivors
        sorted_p, order = probs.sort(dim=-1, descending=True)  # (B, V)
        mass_before = sorted_p.cumsum(dim=-1) - sorted_p  # (B, V) what the more likely tokens hold
        remove_sorted = mass_before >= top_p  # the crossing token has mass_before < top_p: kept
        remove = remove_sorted.scatter(-1, order, remove_sorted)  # (B, V) back to vocabulary order
        out = out.masked_fill(remove, float("-inf"))
    return out
