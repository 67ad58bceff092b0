# kata: beam-search
# why: a small Hypothesis class with a shrinking beam; the normalising length is the tokens before the eos
# mistake: length_excludes_eos
import torch


class Hypothesis:
    def __init__(self, tokens, logp):
        self.tokens = tokens
        self.logp = logp

    def extend(self, token, lp):
        return Hypothesis(self.tokens + [token], self.logp + lp)

    def normalised(self, eos, alpha):
        n = len(self.tokens) - (1 if self.tokens and self.tokens[-1] == eos else 0)
        return float(torch.tensor(self.logp, dtype=torch.float64) / torch.tensor(float(n), dtype=torch.float64) ** alpha)


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    device = input_ids.device
    prefix = input_ids.tolist()
    live = [Hypothesis([], 0.0)]
    done = []
    dtype = torch.float32
    for step in range(max_new_tokens):
        width = num_beams - len(done)
        lp = log_prob_fn(torch.tensor([prefix + h.tokens for h in live], device=device))
        dtype = lp.dtype
        rows = lp.double().tolist()
        cands = sorted((h.extend(v, x) for h, row in zip(live, rows) for v, x in enumerate(row)),
                       key=lambda c: c.logp, reverse=True)[:width]
        live = []
        for c in cands:
            (done if c.tokens[-1] == eos_token_id else live).append(c)
        if step == max_new_tokens - 1:
            done += live
        if len(done) >= num_beams or step == max_new_tokens - 1:
            break
    done.sort(key=lambda h: h.normalised(eos_token_id, length_penalty), reverse=True)
    best = done[:num_return_sequences]
    n = max(len(h.tokens) for h in best)
    seqs = torch.tensor([prefix + h.tokens + [pad_token_id] * (n - len(h.tokens)) for h in best], device=device)
    scores = torch.tensor([h.normalised(eos_token_id, length_penalty) for h in best], dtype=dtype, device=device)
    return seqs, scores
