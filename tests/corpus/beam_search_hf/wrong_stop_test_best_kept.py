# kata: beam-search-hf
# why: stop test against the best finished hypothesis (items[0]) instead of the worst
# mistake: heuristic_against_best_finished
import torch


class _Hyps:
    def __init__(self, k, lp):
        self.k, self.lp, self.items = k, lp, []

    def add(self, raw, tokens, length):
        self.items.append((raw / length ** self.lp, tokens))
        self.items.sort(key=lambda x: x[0], reverse=True)
        self.items = self.items[:self.k]

    def full(self):
        return len(self.items) == self.k


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    hyps = _Hyps(num_beams, length_penalty)
    prompt = input_ids.tolist()
    beams = [([], 0.0)]
    dtype = torch.float32
    for t in range(1, max_new_tokens + 1):
        out = log_prob_fn(torch.tensor([prompt + b for b, _ in beams], device=input_ids.device))
        dtype = out.dtype
        flat = [(s + v, toks + [w]) for (toks, s), row in zip(beams, out.tolist()) for w, v in enumerate(row)]
        flat.sort(key=lambda c: c[0], reverse=True)
        beams = []
        for rank, (s, toks) in enumerate(flat[:2 * num_beams]):
            if toks[-1] == eos_token_id or t == max_new_tokens:
                if rank < num_beams:
                    hyps.add(s, toks, t)
            elif len(beams) < num_beams:
                beams.append((toks, s))
        if t < max_new_tokens and hyps.full():
            h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
            if early_stopping is True or beams[0][1] / h ** length_penalty <= hyps.items[0][0]:
                break
    best = hyps.items[:num_return_sequences]
    n = max(len(toks) for _, toks in best)
    seqs = torch.tensor([prompt + toks + [pad_token_id] * (n - len(toks)) for _, toks in best], device=input_ids.device)
    return seqs, torch.tensor([s for s, _ in best], dtype=dtype, device=input_ids.device)
