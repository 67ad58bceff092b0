# kata: top-p
# why: the shift-right rule (cumsum >= top_p, shifted) on an ascending sort: what is kept is the tail, not the head
# mistake: ascending_sort
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    x = logits.clone()
    V = x.shape[-1]
    if 0 < top_k < V:
        thresh = torch.topk(x, top_k, dim=-1).values[:, [-1]]
        x = torch.where(x < thresh, torch.full_like(x, float("-inf")), x)
    if top_p < 1.0:
        half = x.dtype in (torch.float16, torch.bfloat16)
        sorted_logits, idx = torch.sort(x, dim=-1, descending=False)
        cum = torch.softmax(sorted_logits.float() if half else sorted_logits, dim=-1).cumsum(dim=-1)
        remove = cum >= top_p
        remove[..., 1:] = remove[..., :-1].clone()
        remove[..., 0] = False
        x = x.masked_fill(remove.scatter(1, idx, remove), float("-inf"))
    return x
