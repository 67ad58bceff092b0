# kata: greedy-generate
# why: breaks as soon as one row emits eos
# mistake: stops_when_any_row_finishes
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    seq = input_ids
    for step in range(max_new_tokens):
        nxt = logits[:, -1, :].argmax(-1)
        seq = torch.cat([seq, nxt[:, None]], dim=1)
        if eos_token_id is not None and (nxt == eos_token_id).any():
            break
        if step + 1 < max_new_tokens:
            logits, past = model(nxt[:, None], past_key_values=past)
    return seq
