# kata: beam-search-hf
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    device = input_ids.device
    seqs = input_ids[None]
    beam_scores = None
    done_seqs, done_scores = [], []
    for t in range(1, max_new_tokens + 1):
        log_probs = log_prob_fn(seqs)
        if beam_scores is None:
            beam_scores = torch.zeros(1, dtype=log_probs.dtype, device=device)
        vocab = log_probs.shape[-1]
        scores, flat = (beam_scores[:, None] + log_probs).view(-1).topk(2 * num_beams)
        parent, token = flat // vocab, flat % vocab
        cand = torch.cat([seqs[parent], token[:, None]], dim=-1)
        if t == max_new_tokens:
            finishes = torch.ones_like(token, dtype=torch.bool)
        elif eos_token_id is None:
            finishes = torch.zeros_like(token, dtype=torch.bool)
        else:
            finishes = token == eos_token_id
        for i in range(2 * num_beams):
            if finishes[i]:
                done_seqs.append(cand[i])
                done_scores.append(scores[i] / t ** length_penalty)
        order = sorted(range(len(done_scores)), key=lambda i: -float(done_scores[i]))[:num_beams]
        done_seqs = [done_seqs[i] for i in order]
        done_scores = [done_scores[i] for i in order]
        live = torch.nonzero(~finishes).flatten()[:num_beams]
        seqs, beam_scores = cand[live], scores[live]
        if t == max_new_tokens or len(done_scores) < num_beams:
            continue
        if early_stopping is True:
            break
        horizon = max_new_tokens if early_stopping == "never" and length_penalty > 0 else t
        if beam_scores[0] / horizon ** length_penalty <= done_scores[-1]:
            break
    r = num_return_sequences
    width = max(s.shape[0] for s in done_seqs[:r])
    sequences = torch.full((r, width), pad_token_id, dtype=torch.long, device=device)
    for row in range(r):
        sequences[row, :done_seqs[row].shape[0]] = done_seqs[row]
    return sequences, torch.stack(done_scores[:r])
