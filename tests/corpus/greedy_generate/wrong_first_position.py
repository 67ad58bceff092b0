# kata: greedy-generate
# why: reads logits[:, 0] — right after the first step (one position), wrong after the prefill
# mistake: first_position_logits
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    out = model(input_ids)
    logits, past = out.logits, out.past_key_values
    generated = []
    done = torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    for step in range(max_new_tokens):
        nxt = logits[:, 0, :].argmax(dim=-1)
        if eos_token_id is not None:
            nxt[done] = pad_token_id
            done = done | (nxt == eos_token_id)
        generated.append(nxt)
        if done.all() or step == max_new_tokens - 1:
            break
        logits, past = model(nxt[:, None], past_key_values=past)
    return torch.cat([input_ids, torch.stack(generated, dim=1)], dim=1)
