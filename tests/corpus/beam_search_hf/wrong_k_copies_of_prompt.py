# kata: beam-search-hf
# why: starts from num_beams copies of the prompt, all at score 0, so the first step picks the same token several times
# mistake: prompt_copied_into_every_beam
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    device = input_ids.device
    seqs = input_ids.repeat(num_beams, 1)
    run = None
    fin, fin_s, fin_n = [], [], []
    for t in range(1, max_new_tokens + 1):
        lp = log_prob_fn(seqs)
        run = torch.zeros(num_beams, dtype=lp.dtype, device=device) if run is None else run
        V = lp.size(1)
        top, ix = torch.topk((run[:, None] + lp).view(-1), 2 * num_beams)
        cand = torch.cat([seqs[ix // V], (ix % V)[:, None]], 1)
        end = (ix % V == eos_token_id) | (t == max_new_tokens) if eos_token_id is not None else \
            torch.full((2 * num_beams,), t == max_new_tokens, device=device)
        for i in range(num_beams):
            if end[i]:
                fin.append(cand[i]); fin_s.append(top[i] / t ** length_penalty); fin_n.append(t)
        order = sorted(range(len(fin)), key=lambda i: -float(fin_s[i]))[:num_beams]
        fin, fin_s, fin_n = [fin[i] for i in order], [fin_s[i] for i in order], [fin_n[i] for i in order]
        keep = (~end).nonzero().view(-1)[:num_beams]
        seqs, run = cand[keep], top[keep]
        if t == max_new_tokens or len(fin) < num_beams:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
        if run[0] / h ** length_penalty <= fin_s[-1]:
            break
    r = num_return_sequences
    width = input_ids.numel() + max(fin_n[:r])
    out = torch.full((r, width), pad_token_id, dtype=torch.long, device=device)
    for j in range(r):
        out[j, :fin[j].numel()] = fin[j]
    return out, torch.stack(fin_s[:r])
