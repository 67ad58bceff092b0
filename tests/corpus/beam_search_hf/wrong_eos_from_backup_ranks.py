# kata: beam-search-hf
# why: vectorised; every eos among the 2k kept candidates is finished, the backup ranks included
# mistake: eos_accepted_at_any_rank
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    k, L, dev = num_beams, input_ids.numel(), input_ids.device
    beams = input_ids.view(1, L)
    beam_lp = torch.zeros(1, device=dev)
    fin_tok = torch.full((0, L + max_new_tokens), pad_token_id, dtype=torch.long, device=dev)
    fin_score = torch.zeros(0, device=dev)
    fin_len = torch.zeros(0, dtype=torch.long, device=dev)
    for t in range(1, max_new_tokens + 1):
        logp = log_prob_fn(beams)
        beam_lp, fin_score = beam_lp.to(logp.dtype), fin_score.to(logp.dtype)
        V = logp.size(-1)
        s, ix = (beam_lp.unsqueeze(-1) + logp).reshape(-1).topk(2 * k)
        ext = torch.cat((beams[ix // V], (ix % V).unsqueeze(-1)), -1)
        stop = (ix % V == eos_token_id) if eos_token_id is not None else torch.zeros(2 * k, dtype=torch.bool, device=dev)
        if t == max_new_tokens:
            stop = torch.ones_like(stop)
        padded = torch.nn.functional.pad(ext[stop], (0, max_new_tokens - t), value=pad_token_id)
        fin_tok = torch.cat((fin_tok, padded))
        fin_score = torch.cat((fin_score, s[stop] / t ** length_penalty))
        fin_len = torch.cat((fin_len, torch.full((int(stop.sum()),), t, device=dev)))
        order = fin_score.argsort(descending=True)[:k]
        fin_tok, fin_score, fin_len = fin_tok[order], fin_score[order], fin_len[order]
        go = (~stop).nonzero().flatten()[:k]
        beams, beam_lp = ext[go], s[go]
        if t == max_new_tokens or fin_score.numel() < k:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
        if beam_lp[0] / h ** length_penalty <= fin_score[-1]:
            break
    r = num_return_sequences
    return fin_tok[:r, :L + int(fin_len[:r].max())], fin_score[:r]
