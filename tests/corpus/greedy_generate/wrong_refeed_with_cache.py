# kata: greedy-generate
# why: keeps the cache but feeds the whole sequence again each step, so positions repeat and shift
# mistake: sequence_refed_with_cache
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    seq = input_ids
    past = None
    alive = torch.ones(input_ids.size(0), dtype=torch.bool, device=input_ids.device)
    for i in range(max_new_tokens):
        logits, past = model(seq, past_key_values=past)
        tok = logits[:, -1].argmax(dim=-1)
        if eos_token_id is not None:
            tok = torch.where(alive, tok, pad_token_id)
            alive = alive & (tok != eos_token_id)
        seq = torch.cat((seq, tok[:, None]), dim=1)
        if not alive.any():
            break
    return seq
