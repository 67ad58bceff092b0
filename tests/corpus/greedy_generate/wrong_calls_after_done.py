# kata: greedy-generate
# why: runs every step with the model and cuts the all-pad columns off at the end: right tokens, wasted calls
# mistake: extra_model_calls
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    B, L = input_ids.shape
    logits, past = model(input_ids)
    done = torch.zeros(B, dtype=torch.bool, device=input_ids.device)
    steps = []
    last_needed = max_new_tokens
    for t in range(max_new_tokens):
        tok = logits[:, -1, :].argmax(-1)
        if eos_token_id is not None:
            tok = torch.where(done, torch.full_like(tok, pad_token_id), tok)
            done = done | (tok == eos_token_id)
            if done.all() and last_needed == max_new_tokens:
                last_needed = t + 1
        steps.append(tok)
        if t + 1 < max_new_tokens:
            logits, past = model(tok[:, None], past_key_values=past)
    return torch.cat([input_ids, torch.stack(steps, 1)[:, :last_needed]], dim=1)
