# kata: beam-search-hf
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    prompt = input_ids.tolist()
    beams = [(0.0, [])]
    finished = []
    dtype = None
    for step in range(1, max_new_tokens + 1):
        candidates = []
        for raw, tokens in beams:
            row = torch.tensor([prompt + tokens], dtype=torch.long, device=input_ids.device)
            logp = log_prob_fn(row)
            dtype = logp.dtype
            for token, lp in enumerate(logp[0].tolist()):
                candidates.append((raw + lp, tokens + [token]))
        candidates.sort(key=lambda c: c[0], reverse=True)
        candidates = candidates[:2 * num_beams]
        last = step == max_new_tokens
        new_beams = []
        for rank, (raw, tokens) in enumerate(candidates):
            if last or tokens[-1] == eos_token_id:
                if rank < num_beams:
                    finished.append((raw / step ** length_penalty, tokens))
            else:
                new_beams.append((raw, tokens))
        finished = sorted(finished, key=lambda f: f[0], reverse=True)[:num_beams]
        beams = new_beams[:num_beams]
        if last or len(finished) < num_beams:
            continue
        if early_stopping is True:
            break
        horizon = max_new_tokens if early_stopping == "never" and length_penalty > 0 else step
        if beams[0][0] / horizon ** length_penalty <= finished[-1][0]:
            break
    best = finished[:num_return_sequences]
    width = max(len(tokens) for _, tokens in best)
    rows = [prompt + tokens + [pad_token_id] * (width - len(tokens)) for _, tokens in best]
    sequences = torch.tensor(rows, dtype=torch.long, device=input_ids.device)
    scores = torch.tensor([s for s, _ in best], dtype=dtype, device=input_ids.device)
    return sequences, scores
