# kata: greedy-generate
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    unfinished_sequences = torch.ones(input_ids.shape[0], dtype=torch.long, device=input_ids.device)
    outputs = model(input_ids, past_key_values=None, use_cache=True)
    sequences = input_ids
    generated = 0
    while True:
        next_token_logits = outputs.logits[:, -1, :]
        next_tokens = torch.argmax(next_token_logits, dim=-1)
        if eos_token_id is not None:
            next_tokens = next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences)
            unfinished_sequences = unfinished_sequences & (next_tokens != eos_token_id).long()
        sequences = torch.cat([sequences, next_tokens[:, None]], dim=-1)
        generated += 1
        if generated >= max_new_tokens or unfinished_sequences.max() == 0:
            break
        outputs = model(next_tokens[:, None], past_key_values=outputs.past_key_values, use_cache=True)
    return sequences
