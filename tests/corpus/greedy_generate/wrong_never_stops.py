# kata: greedy-generate
# why: pads finished rows but always runs max_new_tokens steps: trailing columns of pad
# mistake: never_stops_early
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    B = input_ids.shape[0]
    logits, past = model(input_ids)
    active = torch.ones(B, dtype=torch.bool, device=input_ids.device)
    new_tokens = []
    for t in range(max_new_tokens):
        tok = logits[:, -1, :].argmax(dim=-1)
        if eos_token_id is not None:
            tok = torch.where(active, tok, torch.full_like(tok, pad_token_id))
            active = active & (tok != eos_token_id)
        new_tokens.append(tok)
        if t < max_new_tokens - 1:
            logits, past = model(tok.view(B, 1), past_key_values=past)
    return torch.cat([input_ids, torch.stack(new_tokens, dim=1)], dim=1)
