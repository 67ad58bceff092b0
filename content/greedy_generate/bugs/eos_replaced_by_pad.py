# kata: greedy-generate
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    batch_size = input_ids.size(0)
    finished = torch.zeros(batch_size, dtype=torch.bool, device=input_ids.device)
    out = model(input_ids)
    new_tokens = []
    for i in range(max_new_tokens):
        token = out.logits[:, -1].argmax(-1)
        if eos_token_id is not None:
            finished |= token == eos_token_id
            token = token.masked_fill(finished, pad_token_id)
        new_tokens.append(token)
        if finished.all() or i + 1 == max_new_tokens:
            break
        out = model(token.unsqueeze(-1), past_key_values=out.past_key_values)
    return torch.cat([input_ids, torch.stack(new_tokens, dim=1)], dim=1)
