# kata: beam-search
# why: ends the search as soon as the top candidate of a step is an eos
# mistake: stops_when_best_ends
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    prompt = input_ids.tolist()
    hypotheses = [[]]
    hyp_scores = torch.zeros(1, dtype=torch.float64, device=input_ids.device)
    completed = []
    dtype = torch.float32
    for t in range(max_new_tokens):
        live = num_beams - len(completed)
        rows = torch.tensor([prompt + h for h in hypotheses], dtype=torch.long, device=input_ids.device)
        log_p = log_prob_fn(rows)
        dtype, V = log_p.dtype, log_p.shape[1]
        continuing = (hyp_scores.unsqueeze(1) + log_p.double()).view(-1)
        top_scores, top_pos = torch.topk(continuing, k=live)
        new_hypotheses, new_scores = [], []
        for score, pos in zip(top_scores.tolist(), top_pos.tolist()):
            prev, word = divmod(pos, V)
            hyp = hypotheses[prev] + [word]
            if word == eos_token_id:
                completed.append((hyp, score))
            else:
                new_hypotheses.append(hyp)
                new_scores.append(score)
        if len(completed) == num_beams:
            break
        if t == max_new_tokens - 1 or top_pos[0].item() % V == eos_token_id:
            completed.extend(zip(new_hypotheses, new_scores))
            break
        hypotheses = new_hypotheses
        hyp_scores = torch.tensor(new_scores, dtype=torch.float64, device=input_ids.device)
    ranked = sorted(((s / len(h) ** length_penalty, h) for h, s in completed), key=lambda x: x[0], reverse=True)
    best = ranked[:num_return_sequences]
    longest = max(len(h) for _, h in best)
    sequences = torch.tensor([prompt + h + [pad_token_id] * (longest - len(h)) for _, h in best],
                             dtype=torch.long, device=input_ids.device)
    scores = torch.tensor([s for s, _ in best], dtype=dtype, device=input_ids.device)
    return sequences, scores
