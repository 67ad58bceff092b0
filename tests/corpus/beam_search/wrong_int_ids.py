# kata: beam-search
# why: builds the output with dtype=torch.int
# mistake: int32_ids
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    bsz_beam = num_beams
    cand_size = 2 * bsz_beam
    tokens = input_ids.view(1, -1)
    scores = torch.zeros(1, device=input_ids.device)
    finalized = []
    plen = input_ids.numel()
    for step in range(max_new_tokens):
        lprobs = log_prob_fn(tokens)
        vocab = lprobs.size(1)
        cand = scores.to(lprobs.dtype).unsqueeze(1) + lprobs
        cand_scores, cand_indices = cand.view(-1).topk(cand_size)
        cand_beams = torch.div(cand_indices, vocab, rounding_mode="floor")
        cand_tokens = cand_indices.fmod(vocab)
        if step == max_new_tokens - 1:
            eos_mask = torch.ones_like(cand_tokens, dtype=torch.bool)
        elif eos_token_id is None:
            eos_mask = torch.zeros_like(cand_tokens, dtype=torch.bool)
        else:
            eos_mask = cand_tokens.eq(eos_token_id)
        eos_mask[bsz_beam:] = False
        for i in eos_mask.nonzero().flatten().tolist():
            if len(finalized) < bsz_beam:
                hypo = torch.cat([tokens[cand_beams[i], plen:], cand_tokens[i:i + 1]])
                finalized.append((cand_scores[i] / (step + 1) ** length_penalty, hypo))
        if len(finalized) >= bsz_beam or step == max_new_tokens - 1:
            break
        active = (~cand_tokens.eq(eos_token_id if eos_token_id is not None else -1)).nonzero().flatten()[:bsz_beam]
        tokens = torch.cat([tokens[cand_beams[active]], cand_tokens[active].unsqueeze(1)], dim=1)
        scores = cand_scores[active]
    finalized.sort(key=lambda f: float(f[0]), reverse=True)
    best = finalized[:num_return_sequences]
    width = max(h.numel() for _, h in best)
    out = torch.full((len(best), plen + width), pad_token_id, dtype=torch.int, device=input_ids.device)
    out[:, :plen] = input_ids
    for i, (_, h) in enumerate(best):
        out[i, plen:plen + h.numel()] = h
    return out, torch.stack([s for s, _ in best])
