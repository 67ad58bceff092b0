# kata: greedy-generate
# why: takes the max by scanning with >=, so the last of equal logits wins
# mistake: last_index_on_ties
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    seq = input_ids
    unfinished = torch.ones(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    for step in range(max_new_tokens):
        last = logits[:, -1, :]
        V = last.shape[-1]
        nxt = (V - 1) - last.flip(-1).argmax(-1)
        if eos_token_id is not None:
            nxt = torch.where(unfinished, nxt, torch.full_like(nxt, pad_token_id))
            unfinished = unfinished & (nxt != eos_token_id)
        seq = torch.cat([seq, nxt[:, None]], dim=1)
        if step + 1 == max_new_tokens or not unfinished.any():
            break
        logits, past = model(nxt[:, None], past_key_values=past)
    return seq
