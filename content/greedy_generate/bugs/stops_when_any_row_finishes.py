# kata: greedy-generate
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    B = input_ids.shape[0]
    logits, cache = model(input_ids, None)
    done = torch.zeros(B, dtype=torch.bool, device=input_ids.device)
    columns = [input_ids]
    for _ in range(max_new_tokens):
        tok = torch.argmax(logits[:, -1, :], dim=-1)
        if eos_token_id is not None:
            tok[done] = pad_token_id
            done = done | (tok == eos_token_id)
        columns.append(tok.view(B, 1))
        if len(columns) > max_new_tokens or done.any():
            break
        logits, cache = model(tok.view(B, 1), cache)
    return torch.cat(columns, dim=1)
