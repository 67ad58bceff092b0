# kata: greedy-generate
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    logits, past = model(input_ids)
    sequences = input_ids
    running = torch.ones(input_ids.shape[0], dtype=torch.long, device=input_ids.device)
    for step in range(max_new_tokens):
        next_tokens = logits[:, -1, :].argmax(dim=-1)
        if eos_token_id is not None:
            next_tokens = next_tokens * running + eos_token_id * (1 - running)
            running = running * (next_tokens != eos_token_id).long()
        sequences = torch.cat([sequences, next_tokens[:, None]], dim=-1)
        if step + 1 == max_new_tokens or running.sum() == 0:
            break
        logits, past = model(next_tokens[:, None], past_key_values=past)
    return sequences
