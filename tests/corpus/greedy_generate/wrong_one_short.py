# kata: greedy-generate
# why: counts the prefill as a step: the loop runs max_new_tokens - 1 times and the prefill's token is never appended
# mistake: one_token_short
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    seq = input_ids
    unfinished = torch.ones(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    for step in range(1, max_new_tokens):
        nxt = logits[:, -1].argmax(-1)
        if eos_token_id is not None:
            nxt = torch.where(unfinished, nxt, torch.full_like(nxt, pad_token_id))
            unfinished = unfinished & (nxt != eos_token_id)
        seq = torch.cat([seq, nxt[:, None]], -1)
        if not unfinished.any():
            break
        logits, past = model(nxt[:, None], past_key_values=past)
    return seq
