# kata: greedy-generate
# why: never uses the cache: every step runs the model on the whole sequence so far (right tokens, O(n²) work)
# mistake: no_cache
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    seq = input_ids
    unfinished = torch.ones(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    for _ in range(max_new_tokens):
        logits, _ = model(seq)
        nxt = logits[:, -1, :].argmax(-1)
        if eos_token_id is not None:
            nxt = torch.where(unfinished, nxt, torch.full_like(nxt, pad_token_id))
            unfinished &= nxt != eos_token_id
        seq = torch.cat([seq, nxt.unsqueeze(-1)], dim=-1)
        if not unfinished.any():
            break
    return seq
