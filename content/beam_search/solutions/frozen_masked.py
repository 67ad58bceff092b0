# kata: beam-search
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    device = input_ids.device
    seqs = input_ids.unsqueeze(0)
    scores = torch.zeros(1, device=device, dtype=torch.float64)
    lengths = torch.zeros(1, device=device, dtype=torch.long)
    done = torch.zeros(1, device=device, dtype=torch.bool)
    for _ in range(max_new_tokens):
        raw = log_prob_fn(seqs)
        dtype, logp = raw.dtype, raw.double()
        V = logp.shape[-1]
        frozen = torch.full_like(logp, float("-inf"))
        frozen[:, pad_token_id] = 0.0
        step = torch.where(done.unsqueeze(1), frozen, logp)
        flat = (scores.unsqueeze(1) + step).view(-1)
        scores, idx = flat.topk(min(num_beams, flat.numel()))
        parent, token = idx // V, idx % V
        was_done = done[parent]
        seqs = torch.cat([seqs[parent], token.unsqueeze(1)], dim=1)
        lengths = lengths[parent] + (~was_done).long()
        done = was_done | (token == eos_token_id) if eos_token_id is not None else was_done
        if bool(done.all()):
            break
    final = scores / lengths.double() ** length_penalty
    order = final.argsort(descending=True)[:num_return_sequences]
    L = input_ids.shape[0]
    width = int(lengths[order].max())
    out = seqs[order, :L + width].clone()
    keep = torch.arange(width, device=device).unsqueeze(0) < lengths[order].unsqueeze(1)
    out[:, L:] = torch.where(keep, out[:, L:], torch.full_like(out[:, L:], pad_token_id))
    return out, final[order].to(dtype)
