# kata: beam-search-hf
# why: a heap of finished hypotheses keyed by their summed log-prob; the length penalty only applied to the returned scores
# mistake: finished_ranked_by_raw_sum
import heapq

import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    dev = input_ids.device
    hyps = input_ids[None]
    acc = None
    heap = []
    for t in range(1, max_new_tokens + 1):
        lp = log_prob_fn(hyps)
        if acc is None:
            acc = lp.new_zeros(1)
        vals, idx = (acc[:, None] + lp).flatten().topk(2 * num_beams)
        grown = torch.cat([hyps[idx // lp.shape[1]], (idx % lp.shape[1])[:, None]], 1)
        ending = [t == max_new_tokens or int(w) == eos_token_id for w in idx % lp.shape[1]]
        for i in range(num_beams):
            if ending[i]:
                item = (float(vals[i]), t, grown[i].tolist())
                if len(heap) < num_beams:
                    heapq.heappush(heap, item)
                else:
                    heapq.heappushpop(heap, item)
        alive = [i for i in range(2 * num_beams) if not ending[i]][:num_beams]
        hyps, acc = grown[alive], vals[alive]
        if t == max_new_tokens or len(heap) < num_beams:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
        if float(acc[0]) / h ** length_penalty <= heap[0][0] / heap[0][1] ** length_penalty:
            break
    best = sorted(heap, reverse=True)[:num_return_sequences]
    width = max(len(row) for _, _, row in best)
    seqs = torch.tensor([row + [pad_token_id] * (width - len(row)) for _, _, row in best], device=dev)
    return seqs, torch.tensor([raw / n ** length_penalty for raw, n, _ in best], dtype=lp.dtype, device=dev)
