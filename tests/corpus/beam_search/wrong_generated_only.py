# kata: beam-search
# why: returns only the generated tokens
# mistake: prompt_not_returned
import heapq

import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    dev = input_ids.device
    prompt = input_ids.tolist()
    beams = [(0.0, [])]
    done = []
    out_dtype = None
    for step in range(1, max_new_tokens + 1):
        cands = []
        for score, toks in beams:
            lp = log_prob_fn(torch.tensor([prompt + toks], dtype=torch.int64, device=dev))[0]
            out_dtype = lp.dtype
            for v, x in enumerate(lp.tolist()):
                cands.append((score + x, toks + [v]))
        top = heapq.nlargest(2 * num_beams, cands, key=lambda c: c[0])
        beams = []
        for rank, (score, toks) in enumerate(top):
            if rank < num_beams and (toks[-1] == eos_token_id or step == max_new_tokens):
                done.append((score / len(toks) ** length_penalty, toks))
            elif toks[-1] != eos_token_id and len(beams) < num_beams:
                beams.append((score, toks))
        done = heapq.nlargest(num_beams, done, key=lambda d: d[0])
        if len(done) == num_beams:
            break
    best = done[:num_return_sequences]
    n = max(len(t) for _, t in best)
    seqs = [t + [pad_token_id] * (n - len(t)) for _, t in best]
    return (torch.tensor(seqs, dtype=torch.int64, device=dev),
            torch.tensor([s for s, _ in best], dtype=out_dtype, device=dev))
