# kata: greedy-generate
# why: masks finished rows after updating the flag, so the eos itself becomes pad
# mistake: eos_replaced_by_pad
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    finished = torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    cols = []
    for step in range(max_new_tokens):
        nxt = logits[:, -1].argmax(-1)
        if eos_token_id is not None:
            finished = finished | (nxt == eos_token_id)
            nxt = nxt.masked_fill(finished, pad_token_id)
        cols.append(nxt)
        if finished.all() or step + 1 == max_new_tokens:
            break
        logits, past = model(nxt.unsqueeze(1), past)
    return torch.cat([input_ids, torch.stack(cols, 1)], 1)
