# kata: beam-search-hf
# why: keeps k candidates per step (the textbook beam width), so a step where some end in eos leaves fewer live beams
# mistake: only_k_candidates
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
        values = logp.tolist()
        cands = sorted(((raw + values[b][tok], toks + [tok]) for b, (raw, toks) in enumerate(beams)
                        for tok in range(logp.shape[1])), key=lambda c: c[0], reverse=True)[:num_beams]
        last = step == max_new_tokens
        beams = []
        for raw, toks in cands:
            if last or toks[-1] == eos_token_id:
                finished.append((raw / step ** length_penalty, toks))
            else:
                beams.append((raw, toks))
        finished = sorted(finished, key=lambda f: f[0], reverse=True)[:num_beams]
        if last or not beams:
            break
        if len(finished) < num_beams:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else step
        if beams[0][0] / h ** length_penalty <= finished[-1][0]:
            break
    best = finished[:num_return_sequences]
    n = max(len(t) for _, t in best)
    seqs = torch.tensor([prompt + t + [pad_token_id] * (n - len(t)) for _, t in best], device=input_ids.device)
    return seqs, torch.tensor([s for s, _ in best], dtype=dtype, device=input_ids.device)
