# kata: beam-search
# why: refill written with a dict of hypotheses and numpy argsort; the finished pool is trimmed and returned by the raw log-prob sum, though each score is normalised
# mistake: ranked_by_raw
import numpy as np
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    ctx = tuple(input_ids.tolist())
    alive = {(): 0.0}
    pool = {}
    out_dtype = torch.float32
    for t in range(1, max_new_tokens + 1):
        keys = list(alive)
        batch = torch.tensor([list(ctx + h) for h in keys], dtype=torch.int64, device=input_ids.device)
        lp = log_prob_fn(batch)
        out_dtype = lp.dtype
        table = np.array([alive[h] for h in keys])[:, None] + lp.double().cpu().numpy()
        flat = table.ravel()
        order = np.argsort(-flat, kind="stable")[: 2 * num_beams]
        alive = {}
        for pos, idx in enumerate(order):
            h = keys[idx // table.shape[1]] + (int(idx % table.shape[1]),)
            s = float(flat[idx])
            if pos < num_beams and (h[-1] == eos_token_id or t == max_new_tokens):
                pool[h] = s
            elif h[-1] != eos_token_id and len(alive) < num_beams:
                alive[h] = s
        pool = dict(sorted(pool.items(), key=lambda kv: kv[1], reverse=True)[:num_beams])
        if len(pool) == num_beams:
            break
    picked = list(pool.items())[:num_return_sequences]
    width = max(len(h) for h, _ in picked)
    rows = [list(ctx + h) + [pad_token_id] * (width - len(h)) for h, _ in picked]
    finals = [s / len(h) ** length_penalty for h, s in picked]
    return (torch.tensor(rows, dtype=torch.int64, device=input_ids.device),
            torch.tensor(finals, dtype=out_dtype, device=input_ids.device))
