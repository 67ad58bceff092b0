# kata: beam-search-hf
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    device = input_ids.device
    k = num_beams
    prompt_len = input_ids.shape[0]
    max_length = prompt_len + max_new_tokens
    running_sequences = torch.full((k, max_length), pad_token_id, dtype=torch.long, device=device)
    running_sequences[:, :prompt_len] = input_ids
    sequences = running_sequences.clone()
    running_beam_scores = None
    beam_scores = None
    is_sent_finished = torch.zeros(k, dtype=torch.bool, device=device)
    lengths = torch.zeros(k, dtype=torch.long, device=device)
    top_num_beam_mask = torch.arange(2 * k, device=device) < k
    cur_len = prompt_len
    while cur_len < max_length:
        log_probs = log_prob_fn(running_sequences[:, :cur_len])
        if running_beam_scores is None:
            running_beam_scores = torch.zeros(k, dtype=log_probs.dtype, device=device)
            running_beam_scores[1:] = -1e9
            beam_scores = torch.full((k,), -1e9, dtype=log_probs.dtype, device=device)
        vocab_size = log_probs.shape[-1]
        accumulated = (log_probs + running_beam_scores[:, None]).reshape(-1)
        topk_log_probs, topk_indices = torch.topk(accumulated, 2 * k)
        topk_beam = topk_indices // vocab_size
        topk_ids = topk_indices % vocab_size
        topk_sequences = running_sequences[topk_beam].clone()
        topk_sequences[:, cur_len] = topk_ids
        hits = torch.zeros_like(top_num_beam_mask) if eos_token_id is None else topk_ids == eos_token_id
        if cur_len + 1 == max_length:
            hits = torch.ones_like(hits)
        running_log_probs = topk_log_probs + hits.to(topk_log_probs.dtype) * -1e9
        next_indices = torch.topk(running_log_probs, k).indices
        running_sequences = topk_sequences[next_indices]
        running_beam_scores = running_log_probs[next_indices]
        generated = cur_len + 1 - prompt_len
        finished_scores = topk_log_probs / generated ** length_penalty
        just_finished = hits & top_num_beam_mask
        finished_scores = finished_scores + (~just_finished).to(finished_scores.dtype) * -1e9
        merged_scores = torch.cat([beam_scores, finished_scores])
        merged_sequences = torch.cat([sequences, topk_sequences])
        merged_lengths = torch.cat([lengths, torch.full((2 * k,), generated, device=device)])
        merged_finished = torch.cat([is_sent_finished, just_finished])
        keep = torch.topk(merged_scores, k).indices
        beam_scores, sequences = merged_scores[keep], merged_sequences[keep]
        lengths, is_sent_finished = merged_lengths[keep], merged_finished[keep]
        cur_len += 1
        if not is_sent_finished.all():
            continue
        if early_stopping is True:
            break
        if early_stopping == "never" and length_penalty > 0.0:
            best_length = max_new_tokens
        else:
            best_length = generated
        if running_beam_scores[0] / best_length ** length_penalty <= beam_scores.min():
            break
    r = num_return_sequences
    n = int(lengths[:r].max())
    return sequences[:r, :prompt_len + n], beam_scores[:r]
