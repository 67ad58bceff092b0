# kata: beam-search-hf
# why: counts only the content tokens of a hypothesis that ended in eos (the eos itself not), per a "length = words" habit
# mistake: length_excludes_eos
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    prompt = input_ids.tolist()
    live = [([], 0.0)]
    pool = []
    kind = torch.float32
    for step in range(max_new_tokens):
        batch = torch.tensor([prompt + g for g, _ in live], device=input_ids.device)
        out = log_prob_fn(batch)
        kind = out.dtype
        table = out.tolist()
        ranked = sorted(((s + table[b][w], b, w) for b, (_, s) in enumerate(live) for w in range(len(table[b]))),
                        reverse=True)[:2 * num_beams]
        nxt = []
        for rank, (s, b, w) in enumerate(ranked):
            toks = live[b][0] + [w]
            if w == eos_token_id or step + 1 == max_new_tokens:
                if rank < num_beams:
                    words = len(toks) - 1 if w == eos_token_id else len(toks)
                    pool.append((s / max(words, 1) ** length_penalty, toks))
            else:
                nxt.append((toks, s))
        pool.sort(key=lambda x: -x[0])
        del pool[num_beams:]
        live = nxt[:num_beams]
        if step + 1 == max_new_tokens or len(pool) < num_beams:
            continue
        if early_stopping is True:
            break
        span = max_new_tokens if (early_stopping == "never" and length_penalty > 0) else step + 1
        if live[0][1] / span ** length_penalty <= pool[-1][0]:
            break
    top = pool[:num_return_sequences]
    n = max(len(t) for _, t in top)
    rows = [prompt + t + [pad_token_id] * (n - len(t)) for _, t in top]
    return (torch.tensor(rows, dtype=torch.int64, device=input_ids.device),
            torch.tensor([s for s, _ in top], dtype=kind, device=input_ids.device))
