"""Beam search with a length penalty on finished hypotheses: the refill convention.

This is Hugging Face transformers' `GenerationMixin._beam_search` with `early_stopping=True` (and fairseq's
`SequenceGenerator`, up to how the step that fills the list is booked) for one prompt: at every step the top 2k
(hypothesis, token) candidates by raw score (the sum of the generated log-probs); a candidate of rank < k whose
token is eos is offered to the finished list with score raw / n ** length_penalty (n = generated tokens, eos
included, the prompt not: transformers' `decoder_prompt_len`), and the list keeps the best k of old and new
(transformers' `_update_finished_beams`); the k best non-eos candidates are the next beams (the 2k guarantee k of
them: one eos per beam). At max_new_tokens every candidate of rank < k finishes. The search stops once the list
holds k.
"""
import torch


@torch.no_grad()
def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    """input_ids: [L] int64, one prompt. Returns sequences [r, L + n] int64 and scores [r]."""
    k, device = num_beams, input_ids.device
    prompt = input_ids.tolist()
    beams = [[]]  # generated tokens of each running beam: the prompt alone at the first step
    beam_scores = torch.zeros(1, 1, dtype=torch.float64, device=device)  # raw scores, (beams, 1)
    finished = []  # (final score, generated tokens)
    for step in range(1, max_new_tokens + 1):
        log_probs = log_prob_fn(torch.tensor([prompt + b for b in beams], dtype=torch.int64, device=device))
        vocab_size = log_probs.shape[-1]
        scores = (beam_scores + log_probs.double()).view(-1)  # (beams * V,) every candidate's raw score
        top_scores, top_ids = scores.topk(2 * k)  # (2k,), ranked by raw score
        last = step == max_new_tokens
        next_beams, next_scores = [], []
        for rank, (score, index) in enumerate(zip(top_scores.tolist(), top_ids.tolist())):
            beam, token = divmod(index, vocab_size)
            is_eos = token == eos_token_id
            if rank < k and (is_eos or last):
                finished.append((score / step ** length_penalty, beams[beam] + [token]))
            elif not is_eos and len(next_beams) < k:
                next_beams.append(beams[beam] + [token])
                next_scores.append(score)
        finished = sorted(finished, key=lambda f: -f[0])[:k]  # the best k of old and new together
        if last or len(finished) == k:
            break
        beams = next_beams
        beam_scores = torch.tensor(next_scores, dtype=torch.float64, device=device)[:, None]  # (k, 1)
    best = finished[:num_return_sequences]
    width = max(len(tokens) for _, tokens in best)
    rows = [prompt + tokens + [pad_token_id] * (width - len(tokens)) for _, tokens in best]  # right-padded
    sequences = torch.tensor(rows, dtype=torch.int64, device=device)  # (r, L + n)
    scores = torch.tensor([s for s, _ in best], dtype=log_probs.dtype, device=device)  # (r,)
    return sequences, scores
