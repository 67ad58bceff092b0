# kata: greedy-generate
# why: returns only the generated columns
# mistake: prompt_not_returned
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    unfinished = torch.ones(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    new = []
    for step in range(max_new_tokens):
        nxt = logits[:, -1].argmax(-1)
        if eos_token_id is not None:
            nxt = torch.where(unfinished, nxt, torch.full_like(nxt, pad_token_id))
            unfinished = unfinished & (nxt != eos_token_id)
        new.append(nxt)
        if step + 1 == max_new_tokens or not unfinished.any():
            break
        logits, past = model(nxt[:, None], past_key_values=past)
    return torch.stack(new, dim=1)
