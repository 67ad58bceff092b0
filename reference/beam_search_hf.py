"""Beam search with Hugging Face transformers' `generate` semantics (`early_stopping` True / False / "never").

transformers 5.24 `GenerationMixin._beam_search` (the vectorised rewrite), on a batch of one prompt: at each
step every (running beam, token) candidate is scored by the beam's raw score (its summed log-probs) + log p(token)
and the top 2k are kept (`_get_top_k_continuations`, `beams_to_keep = 2 * num_beams`); the candidates of rank < k
that end in eos (every one of them at the last step: `MaxLengthCriteria`) are offered to the finished list with
score raw / t ** length_penalty, t the generated tokens eos included (`decoder_prompt_len`), and the list keeps
the best k of old and new together (`_update_finished_beams`: one `topk` over both); the next running beams are
the top k candidates that did not finish (`_get_running_beams_for_next_iteration`). The search stops at
max_new_tokens; with early_stopping=True once k hypotheses are finished (`_beam_search_has_unfinished_sequences`);
otherwise once the list holds k and the best running raw score / h ** length_penalty cannot beat the worst
finished score, h = max_new_tokens for "never" with length_penalty > 0, else t (`_check_early_stop_heuristic`).
Returns the r best finished hypotheses, right-padded with pad_token_id (transformers pads with
`pad_token_id or eos_token_id`: with pad 0, eos), and their final scores (`sequences_scores`).
"""
import torch
import torch.nn.functional as F


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    """input_ids: int64 [L]. Returns sequences int64 [r, L + n] and scores [r] in the log-probs' dtype."""
    k, T, r = num_beams, max_new_tokens, num_return_sequences
    assert input_ids.dim() == 1 and input_ids.shape[0] >= 1, f"expected one prompt [L], got {tuple(input_ids.shape)}"
    assert k >= 2 and T >= 1 and 1 <= r <= k, f"need num_beams >= 2, max_new_tokens >= 1, 1 <= r <= k: {k}, {T}, {r}"
    assert early_stopping in (True, False, "never"), f"early_stopping is True, False or 'never', got {early_stopping!r}"
    L, device = input_ids.shape[0], input_ids.device
    eos = -1 if eos_token_id is None else eos_token_id  # -1: no token ends a hypothesis before max_new_tokens
    top_num_beam_mask = torch.arange(2 * k, device=device) < k  # (2k,) only ranks 0 … k-1 may finish
    seqs = input_ids[None]  # (1, L): the prompt is the only running beam at t = 1
    raw = torch.zeros(1, device=device)  # (n,) running beams' raw scores, then in the log-probs' dtype
    done = torch.full((k, L + T), pad_token_id, dtype=torch.int64, device=device)  # the finished list, padded
    done_scores = torch.full((k,), float("-inf"), device=device)  # (k,) best first; -inf: an empty place
    done_len = [0] * k  # generated tokens of each finished hypothesis
    for t in range(1, T + 1):
        log_probs = log_prob_fn(seqs)  # (n, V), n = 1 at t = 1, then k
        V = log_probs.shape[-1]
        top, index = (raw.to(log_probs.dtype)[:, None] + log_probs).flatten().topk(2 * k)  # (2k,) best first
        cand = torch.cat([seqs[index // V], (index % V)[:, None]], dim=1)  # (2k, L + t)
        ends = cand[:, -1] == eos if t < T else torch.ones_like(top_num_beam_mask)  # at T every one finishes
        offer = torch.where(ends & top_num_beam_mask, top / t ** length_penalty, float("-inf"))  # (2k,)
        done_scores, keep = torch.cat([done_scores.to(top.dtype), offer]).topk(k)  # best k of old and new
        done = torch.cat([done, F.pad(cand, (0, T - t), value=pad_token_id)])[keep]  # (k, L + T)
        done_len = [(done_len + [t] * 2 * k)[i] for i in keep.tolist()]
        live = (~ends).nonzero()[:k, 0]  # the top k candidates that did not finish
        seqs, raw = cand[live], top[live]  # (k, L + t), (k,)
        if t == T or float(done_scores[-1]) == float("-inf"):
            continue  # the last step, or the list holds fewer than k
        if early_stopping is True:
            break
        h = T if early_stopping == "never" and length_penalty > 0 else t
        if float(raw[0]) / h ** length_penalty <= float(done_scores[-1]):
            break  # the best running beam cannot beat the worst finished one
    n = max(done_len[:r])
    return done[:r, :L + n], done_scores[:r]  # (r, L + n), (r,)
