# kata: beam-search-hf
# why: scores accumulated in float32 whatever the log-probs' dtype (as transformers does), all beams in one call, the finished list a dict keyed by token tuples, heapq.nlargest
import heapq

import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    dev = input_ids.device
    hyps = input_ids.unsqueeze(0)
    acc = torch.zeros(1, dtype=torch.float32, device=dev)
    done = {}
    out_dtype = torch.float32
    for t in range(1, max_new_tokens + 1):
        lp = log_prob_fn(hyps)
        out_dtype = lp.dtype
        total = (acc.unsqueeze(1) + lp.float()).flatten()
        vals, idx = total.topk(2 * num_beams)
        src, tok = idx // lp.size(1), idx % lp.size(1)
        grown = torch.cat([hyps[src], tok.unsqueeze(1)], dim=1)
        ending = (tok == eos_token_id) if eos_token_id is not None else torch.zeros_like(tok, dtype=torch.bool)
        if t == max_new_tokens:
            ending[:] = True
        for i in range(num_beams):
            if ending[i]:
                done[tuple(grown[i, input_ids.numel():].tolist())] = float(vals[i]) / t ** length_penalty
        if len(done) > num_beams:
            done = dict(heapq.nlargest(num_beams, done.items(), key=lambda kv: kv[1]))
        alive = (~ending).nonzero().flatten()[:num_beams]
        hyps, acc = grown[alive], vals[alive]
        if t == max_new_tokens or len(done) < num_beams:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if (early_stopping == "never" and length_penalty > 0) else t
        if float(acc[0]) / h ** length_penalty <= min(done.values()):
            break
    ranked = sorted(done.items(), key=lambda kv: kv[1], reverse=True)[:num_return_sequences]
    longest = max(len(toks) for toks, _ in ranked)
    seqs = torch.full((len(ranked), input_ids.numel() + longest), pad_token_id, dtype=torch.int64, device=dev)
    seqs[:, :input_ids.numel()] = input_ids
    for row, (toks, _) in enumerate(ranked):
        seqs[row, input_ids.numel():input_ids.numel() + len(toks)] = torch.tensor(toks, dtype=torch.int64, device=dev)
    return seqs, torch.tensor([s for _, s in ranked], dtype=out_dtype, device=dev)
