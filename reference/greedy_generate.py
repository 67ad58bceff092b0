"""Greedy decoding with a KV cache, as Hugging Face transformers' `generate(do_sample=False)` runs it.

transformers `GenerationMixin._sample` (greedy when do_sample=False): one prefill call on the whole
prompt, then one call per new token with only that token and the cache the previous call returned;
the next token is `argmax(logits[:, -1, :])` (torch.argmax: the first index among equal maxima).
EOS (`_sample` with `EosTokenCriteria`): a row that emitted eos_token_id is finished, keeps its eos
and gets pad_token_id in every later column (`next_tokens * unfinished + pad * (1 - unfinished)`);
the loop stops once every row is finished or after max_new_tokens tokens. The prompt comes back too.
"""
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    """input_ids: [B, L] int64 prompts (no padding). Returns [B, L + n] int64, n <= max_new_tokens."""
    assert input_ids.dim() == 2 and input_ids.shape[1] >= 1, f"expected [B, L], got {tuple(input_ids.shape)}"
    assert max_new_tokens >= 1, f"max_new_tokens must be >= 1, got {max_new_tokens}"
    B = input_ids.shape[0]
    unfinished = torch.ones(B, dtype=torch.bool, device=input_ids.device)  # (B,)
    tokens = [input_ids]
    logits, past = model(input_ids, past_key_values=None)  # prefill: logits (B, L, V)
    for step in range(max_new_tokens):
        next_tokens = logits[:, -1, :].argmax(dim=-1)  # (B,) first index on ties
        if eos_token_id is not None:
            next_tokens = torch.where(unfinished, next_tokens, torch.full_like(next_tokens, pad_token_id))
            unfinished = unfinished & (next_tokens != eos_token_id)
        tokens.append(next_tokens[:, None])  # (B, 1)
        if step + 1 == max_new_tokens or not bool(unfinished.any()):
            break  # no call for a token nobody will read
        logits, past = model(next_tokens[:, None], past_key_values=past)  # (B, 1, V), cache one longer
    return torch.cat(tokens, dim=1)  # (B, L + n)
