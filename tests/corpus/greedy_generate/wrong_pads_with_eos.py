# kata: greedy-generate
# why: fills a finished row with eos_token_id (a common convention elsewhere), not pad_token_id
# mistake: pads_with_eos
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    unfinished = torch.ones(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    seq = input_ids
    for step in range(max_new_tokens):
        nxt = logits[:, -1].argmax(-1)
        if eos_token_id is not None:
            nxt = torch.where(unfinished, nxt, torch.full_like(nxt, eos_token_id))
            unfinished = unfinished & (nxt != eos_token_id)
        seq = torch.cat([seq, nxt[:, None]], -1)
        if step + 1 == max_new_tokens or not unfinished.any():
            break
        logits, past = model(nxt[:, None], past_key_values=past)
    return seq
