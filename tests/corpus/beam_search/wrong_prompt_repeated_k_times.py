# kata: beam-search
# why: starts from k copies of the prompt, all at score 0 (no −1e9 for copies 1 … k−1)
# mistake: prompt_copied
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    k, T, dev = num_beams, max_new_tokens, input_ids.device
    L = input_ids.shape[0]
    running = input_ids.unsqueeze(0).repeat(k, 1)
    run_scores = torch.full((k,), -1e9, dtype=torch.float64, device=dev)
    run_scores[:] = 0.0
    fin_tokens = torch.full((k, T), pad_token_id, dtype=torch.long, device=dev)
    fin_scores = torch.full((k,), float("-inf"), dtype=torch.float64, device=dev)
    fin_len = torch.ones(k, dtype=torch.long, device=dev)
    dtype = None
    for t in range(1, T + 1):
        lp = log_prob_fn(running)
        dtype = lp.dtype
        V = lp.shape[-1]
        cand = (run_scores[:, None] + lp.double()).view(-1)
        top, idx = cand.topk(2 * k)
        beam, tok = idx // V, idx % V
        seqs = torch.cat([running[beam], tok[:, None]], dim=1)
        is_eos = tok == eos_token_id if eos_token_id is not None else torch.zeros_like(tok, dtype=torch.bool)
        finishing = (is_eos | (t == T)) & (torch.arange(2 * k, device=dev) < k)
        new_scores = torch.where(finishing, top / t ** length_penalty, torch.full_like(top, float("-inf")))
        new_tokens = torch.full((2 * k, T), pad_token_id, dtype=torch.long, device=dev)
        new_tokens[:, :t] = seqs[:, L:]
        all_scores = torch.cat([fin_scores, new_scores])
        all_tokens = torch.cat([fin_tokens, new_tokens])
        all_len = torch.cat([fin_len, torch.full((2 * k,), t, dtype=torch.long, device=dev)])
        fin_scores, keep = all_scores.topk(k)
        fin_tokens, fin_len = all_tokens[keep], all_len[keep]
        alive = torch.where(is_eos, torch.full_like(top, float("-inf")), top)
        run_scores, pick = alive.topk(k)
        running = seqs[pick]
    order = fin_scores.argsort(descending=True)[:num_return_sequences]
    width = int(fin_len[order].max())
    out = torch.cat([input_ids.unsqueeze(0).expand(len(order), L), fin_tokens[order, :width]], dim=1)
    return out, fin_scores[order].to(dtype)
