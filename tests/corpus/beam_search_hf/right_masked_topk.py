# kata: beam-search-hf
# why: a fixed [k, L + T] buffer of running beams and a separate finished buffer, finishers masked with -inf and merged by torch.topk, lengths in a tensor, float64 accumulation then cast back
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    dev = input_ids.device
    k, T, L = num_beams, max_new_tokens, input_ids.numel()
    run = torch.full((1, L + T), pad_token_id, dtype=torch.long, device=dev)
    run[0, :L] = input_ids
    run_score = torch.zeros(1, dtype=torch.float64, device=dev)
    fin = torch.full((k, L + T), pad_token_id, dtype=torch.long, device=dev)
    fin_score = torch.full((k,), float("-inf"), dtype=torch.float64, device=dev)
    fin_len = torch.zeros(k, dtype=torch.long, device=dev)
    lp_dtype = torch.float32
    for t in range(1, T + 1):
        logp = log_prob_fn(run[:, :L + t - 1])
        lp_dtype = logp.dtype
        total = run_score[:, None] + logp.double()
        vals, flat = total.view(-1).topk(2 * k)
        src = flat // logp.shape[1]
        tok = flat % logp.shape[1]
        grown = run[src].clone()
        grown[:, L + t - 1] = tok
        if t == T:
            done_now = torch.ones(2 * k, dtype=torch.bool, device=dev)
        elif eos_token_id is None:
            done_now = torch.zeros(2 * k, dtype=torch.bool, device=dev)
        else:
            done_now = tok == eos_token_id
        eligible = done_now.clone()
        eligible[k:] = False
        cand_score = vals / float(t) ** length_penalty
        cand_score = cand_score.masked_fill(~eligible, float("-inf"))
        all_score = torch.cat([fin_score, cand_score])
        all_seq = torch.cat([fin, grown])
        all_len = torch.cat([fin_len, torch.full((2 * k,), t, dtype=torch.long, device=dev)])
        fin_score, pick = all_score.topk(k)
        fin, fin_len = all_seq[pick], all_len[pick]
        cont = vals.masked_fill(done_now, float("-inf")).topk(k).indices
        run, run_score = grown[cont], vals[cont]
        if t == T or torch.isinf(fin_score).any():
            continue
        if early_stopping is True:
            break
        h = T if early_stopping == "never" and length_penalty > 0 else t
        if (run_score[0] / h ** length_penalty).item() <= fin_score.min().item():
            break
    r = num_return_sequences
    width = L + int(fin_len[:r].max())
    return fin[:r, :width], fin_score[:r].to(lp_dtype)
