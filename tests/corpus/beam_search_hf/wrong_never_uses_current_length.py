# kata: beam-search-hf
# why: one stop test for False and "never" alike, always with the current length (the max_new_tokens horizon of "never" forgotten)
# mistake: never_treated_as_false
import torch
import torch.nn.functional as F


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    k, T = num_beams, max_new_tokens
    L = input_ids.shape[0]
    alive = input_ids[None]
    alive_scores = None
    bank = []
    for t in range(1, T + 1):
        lp = log_prob_fn(alive)
        if alive_scores is None:
            alive_scores = torch.zeros(1, dtype=lp.dtype, device=input_ids.device)
        flat = (alive_scores[:, None] + lp).reshape(-1)
        vals, ids = torch.topk(flat, 2 * k)
        parent, token = ids // lp.shape[1], ids % lp.shape[1]
        grown = torch.cat([alive[parent], token[:, None]], dim=1)
        is_end = torch.full_like(token, T == t, dtype=torch.bool)
        if eos_token_id is not None:
            is_end = is_end | (token == eos_token_id)
        bank += [(vals[i] / t ** length_penalty, grown[i]) for i in range(k) if is_end[i]]
        bank = sorted(bank, key=lambda e: float(e[0]), reverse=True)[:k]
        cont = torch.where(~is_end)[0][:k]
        alive, alive_scores = grown[cont], vals[cont]
        if t == T or len(bank) < k:
            continue
        if early_stopping is True or alive_scores[0] / t ** length_penalty <= bank[-1][0]:
            break
    top = bank[:num_return_sequences]
    n = max(row.shape[0] for _, row in top)
    seqs = torch.stack([F.pad(row, (0, n - row.shape[0]), value=pad_token_id) for _, row in top])
    return seqs, torch.stack([s for s, _ in top])
