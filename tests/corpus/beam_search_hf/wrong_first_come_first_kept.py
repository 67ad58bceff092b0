# kata: beam-search-hf
# why: with early_stopping=True, adds the step's finishers one by one and stops adding once k are kept, so a better finisher later in the same step is dropped
# mistake: offering_stops_when_list_fills
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    prompt = input_ids.tolist()
    beams = [(0.0, [])]
    finished = []
    dtype = None
    for step in range(1, max_new_tokens + 1):
        rows = torch.tensor([prompt + toks for _, toks in beams], dtype=torch.long, device=input_ids.device)
        logp = log_prob_fn(rows)
        dtype = logp.dtype
        cand = sorted(((raw + v, toks + [w]) for (raw, toks), row in zip(beams, logp.tolist())
                       for w, v in enumerate(row)), key=lambda c: c[0], reverse=True)[:2 * num_beams]
        last = step == max_new_tokens
        beams = []
        for rank, (raw, toks) in enumerate(cand):
            if last or toks[-1] == eos_token_id:
                if rank >= num_beams:
                    continue
                if early_stopping is True and len(finished) == num_beams:
                    continue
                finished.append((raw / step ** length_penalty, toks))
                finished = sorted(finished, key=lambda f: f[0], reverse=True)[:num_beams]
            elif len(beams) < num_beams:
                beams.append((raw, toks))
        if last or len(finished) < num_beams:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else step
        if beams[0][0] / h ** length_penalty <= finished[-1][0]:
            break
    best = finished[:num_return_sequences]
    width = max(len(t) for _, t in best)
    seqs = torch.tensor([prompt + t + [pad_token_id] * (width - len(t)) for _, t in best], device=input_ids.device)
    return seqs, torch.tensor([s for s, _ in best], dtype=dtype, device=input_ids.device)
