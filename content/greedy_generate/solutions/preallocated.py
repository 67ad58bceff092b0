# kata: greedy-generate
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    B, L = input_ids.shape
    out = torch.full((B, L + max_new_tokens), pad_token_id, dtype=torch.long, device=input_ids.device)
    out[:, :L] = input_ids
    finished = torch.zeros(B, dtype=torch.bool, device=input_ids.device)
    result = model(input_ids=input_ids)
    length = L
    for t in range(max_new_tokens):
        token = result.logits[:, -1].argmax(-1)
        token = token.masked_fill(finished, pad_token_id)
        out[:, length] = token
        length += 1
        if eos_token_id is not None:
            finished |= token == eos_token_id
            if finished.all():
                break
        if t == max_new_tokens - 1:
            break
        result = model(input_ids=token.view(B, 1), past_key_values=result.past_key_values)
    return out[:, :length]
