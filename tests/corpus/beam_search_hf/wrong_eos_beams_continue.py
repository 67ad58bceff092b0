# kata: beam-search-hf
# why: records finishers but picks the next beams as the top k candidates whatever their token, so an eos hypothesis keeps growing
# mistake: finished_beams_keep_running
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    device = input_ids.device
    seqs = input_ids.unsqueeze(0)
    scores = None
    done_seqs, done_scores = [], []
    for t in range(1, max_new_tokens + 1):
        logits = log_prob_fn(seqs)
        if scores is None:
            scores = torch.zeros(1, dtype=logits.dtype, device=device)
        V = logits.shape[-1]
        total = scores[:, None] + logits
        top_scores, top_idx = total.flatten().topk(2 * num_beams)
        parents = top_idx // V
        words = top_idx % V
        new_seqs = torch.cat([seqs[parents], words[:, None]], dim=1)
        ended = torch.zeros_like(words, dtype=torch.bool) if eos_token_id is None else words.eq(eos_token_id)
        if t == max_new_tokens:
            ended = torch.ones_like(ended)
        for i in range(num_beams):
            if ended[i]:
                done_seqs.append(new_seqs[i])
                done_scores.append(float(top_scores[i]) / t ** length_penalty)
        ranked = sorted(range(len(done_scores)), key=lambda i: done_scores[i], reverse=True)[:num_beams]
        done_seqs = [done_seqs[i] for i in ranked]
        done_scores = [done_scores[i] for i in ranked]
        seqs, scores = new_seqs[:num_beams], top_scores[:num_beams]
        if t == max_new_tokens or len(done_scores) < num_beams:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
        if float(scores[0]) / h ** length_penalty <= done_scores[-1]:
            break
    r = num_return_sequences
    longest = max(s.numel() for s in done_seqs[:r])
    out = torch.stack([torch.cat([s, s.new_full((longest - s.numel(),), pad_token_id)]) for s in done_seqs[:r]])
    return out, torch.tensor(done_scores[:r], dtype=scores.dtype, device=device)
