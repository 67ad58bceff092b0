# kata: greedy-generate
# why: never uses the cache (the whole sequence every step), then rewrites the model's record of its calls to look like a cached loop; the record is the checker's, not the model's, so the loop is judged as it ran
# mistake: no_cache
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    B, L = input_ids.shape
    seq = input_ids
    unfinished = torch.ones(B, dtype=torch.bool, device=input_ids.device)
    for _ in range(max_new_tokens):
        logits, _ = model(seq)
        nxt = logits[:, -1, :].argmax(-1)
        if eos_token_id is not None:
            nxt = torch.where(unfinished, nxt, torch.full_like(nxt, pad_token_id))
            unfinished &= nxt != eos_token_id
        seq = torch.cat([seq, nxt.unsqueeze(-1)], dim=-1)
        if not unfinished.any():
            break
    n = seq.shape[1] - L
    if hasattr(model, "calls"):
        model.calls[:] = [(B, L, -1)] + [(B, 1, i) for i in range(n - 1)]
    return seq
