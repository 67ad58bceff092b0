# kata: beam-search-hf
# why: reads "early stopping off" as "stop once k are finished", and only "never" as the heuristic: False stops like True
# mistake: false_stops_like_true
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    prompt = input_ids.tolist()
    beams = [(0.0, [])]
    finished = []
    dtype = None
    for step in range(1, max_new_tokens + 1):
        candidates = []
        rows = torch.tensor([prompt + toks for _, toks in beams], dtype=torch.long, device=input_ids.device)
        logp = log_prob_fn(rows)
        dtype = logp.dtype
        for b, (raw, toks) in enumerate(beams):
            for token, value in enumerate(logp[b].tolist()):
                candidates.append((raw + value, toks + [token]))
        candidates.sort(key=lambda c: -c[0])
        candidates = candidates[:2 * num_beams]
        last = step == max_new_tokens
        nxt = []
        for rank, (raw, toks) in enumerate(candidates):
            if last or toks[-1] == eos_token_id:
                if rank < num_beams:
                    finished.append((raw / step ** length_penalty, toks))
            else:
                nxt.append((raw, toks))
        finished = sorted(finished, key=lambda f: -f[0])[:num_beams]
        beams = nxt[:num_beams]
        if last or len(finished) < num_beams:
            continue
        if early_stopping != "never":
            break
        horizon = max_new_tokens if length_penalty > 0 else step
        if beams[0][0] / horizon ** length_penalty <= finished[-1][0]:
            break
    best = finished[:num_return_sequences]
    width = max(len(toks) for _, toks in best)
    sequences = torch.tensor([prompt + toks + [pad_token_id] * (width - len(toks)) for _, toks in best],
                             dtype=torch.long, device=input_ids.device)
    return sequences, torch.tensor([s for s, _ in best], dtype=dtype, device=input_ids.device)
