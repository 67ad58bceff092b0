# kata: beam-search-hf
# why: normalises by the whole row's length, prompt included (transformers' behaviour for decoder-only models before decoder_prompt_len)
# mistake: length_counts_prompt
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    K = num_beams
    seqs = input_ids[None, :]
    logsum = None
    hyp_seqs, hyp_scores = [], []
    for t in range(1, max_new_tokens + 1):
        lp = log_prob_fn(seqs)
        if logsum is None:
            logsum = lp.new_zeros(1)
        V = lp.shape[1]
        cand = (logsum[:, None] + lp).view(-1)
        best, flat = torch.sort(cand, descending=True)
        best, flat = best[:2 * K], flat[:2 * K]
        nxt = torch.cat([seqs[flat // V], (flat % V)[:, None]], dim=-1)
        fin = torch.full_like(flat, t == max_new_tokens, dtype=torch.bool)
        if eos_token_id is not None:
            fin |= (flat % V) == eos_token_id
        for j in range(K):
            if fin[j]:
                hyp_seqs.append(nxt[j])
                hyp_scores.append(best[j] / nxt.shape[1] ** length_penalty)
        if len(hyp_scores) > K:
            order = torch.stack(hyp_scores).argsort(descending=True)[:K].tolist()
            hyp_seqs = [hyp_seqs[i] for i in order]
            hyp_scores = [hyp_scores[i] for i in order]
        keep = torch.nonzero(~fin).squeeze(-1)[:K]
        seqs, logsum = nxt[keep], best[keep]
        if t == max_new_tokens or len(hyp_scores) < K:
            continue
        if early_stopping is True:
            break
        denom = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
        if logsum[0] / denom ** length_penalty <= min(hyp_scores):
            break
    order = torch.stack(hyp_scores).argsort(descending=True)[:num_return_sequences].tolist()
    width = max(hyp_seqs[i].shape[0] for i in order)
    out = torch.full((len(order), width), pad_token_id, dtype=torch.long, device=input_ids.device)
    for row, i in enumerate(order):
        out[row, :hyp_seqs[i].shape[0]] = hyp_seqs[i]
    return out, torch.stack([hyp_scores[i] for i in order])
