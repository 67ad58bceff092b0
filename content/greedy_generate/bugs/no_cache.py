# kata: greedy-generate
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    seq = input_ids
    alive = torch.ones(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    for _ in range(max_new_tokens):
        logits = model(seq).logits
        nxt = logits[:, -1, :].argmax(dim=-1)
        if eos_token_id is not None:
            nxt = torch.where(alive, nxt, torch.full_like(nxt, pad_token_id))
            alive = alive & (nxt != eos_token_id)
        seq = torch.cat([seq, nxt[:, None]], dim=1)
        if not alive.any():
            break
    return seq
