# kata: beam-search-hf
# why: one call per beam, heapq.nlargest over (score, beam, token) candidates, the finished list kept sorted with bisect.insort, `early_stopping == True` and `== "never"`
import bisect
import heapq

import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    k = num_beams
    prefix = input_ids.tolist()
    alive = [(0.0, ())]
    kept = []  # (-score, generated), ascending: best first
    out_dtype = None
    for t in range(1, max_new_tokens + 1):
        pool = []
        for b, (acc, gen) in enumerate(alive):
            row = log_prob_fn(torch.tensor([prefix + list(gen)], dtype=torch.int64, device=input_ids.device))[0]
            out_dtype = row.dtype
            pool.extend((acc + lp, b, w) for w, lp in enumerate(row.tolist()))
        best = heapq.nlargest(2 * k, pool, key=lambda c: c[0])
        nxt = []
        for rank, (acc, b, w) in enumerate(best):
            gen = alive[b][1] + (w,)
            if w == eos_token_id or t == max_new_tokens:
                if rank < k:
                    bisect.insort(kept, (-acc / t ** length_penalty, gen))
            elif len(nxt) < k:
                nxt.append((acc, gen))
        del kept[k:]
        alive = nxt
        if t == max_new_tokens or len(kept) < k:
            continue
        if early_stopping == True:  # noqa: E712 — "never" == True is False
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
        if alive[0][0] / h ** length_penalty <= -kept[-1][0]:
            break
    chosen = kept[:num_return_sequences]
    n = max(len(gen) for _, gen in chosen)
    out = torch.full((len(chosen), len(prefix) + n), pad_token_id, dtype=torch.int64, device=input_ids.device)
    out[:, :len(prefix)] = input_ids
    for i, (_, gen) in enumerate(chosen):
        out[i, len(prefix):len(prefix) + len(gen)] = torch.tensor(gen, dtype=torch.int64, device=input_ids.device)
    return out, torch.tensor([-s for s, _ in chosen], dtype=out_dtype, device=input_ids.device)
