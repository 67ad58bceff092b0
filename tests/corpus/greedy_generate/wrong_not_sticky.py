# kata: greedy-generate
# why: decides "finished" from the previous token only, so a row goes on after the pad that follows its eos
# mistake: finished_not_sticky
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    seq = input_ids
    for step in range(max_new_tokens):
        nxt = logits[:, -1, :].argmax(-1)
        if eos_token_id is not None:
            if step > 0:
                nxt = torch.where(seq[:, -1] == eos_token_id, pad_token_id, nxt)
            if (nxt == eos_token_id).all():
                seq = torch.cat([seq, nxt[:, None]], dim=1)
                break
        seq = torch.cat([seq, nxt[:, None]], dim=1)
        if step + 1 < max_new_tokens:
            logits, past = model(nxt[:, None], past_key_values=past)
    return seq
