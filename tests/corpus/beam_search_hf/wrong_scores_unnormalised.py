# kata: beam-search-hf
# why: ranks the finished hypotheses by the length-penalised score but returns their summed log-probs as the scores
# mistake: raw_scores_returned
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                early_stopping=False, num_return_sequences=1, pad_token_id=0):
    L = input_ids.numel()
    beams = [(input_ids.tolist(), 0.0)]
    done = []
    for step in range(1, max_new_tokens + 1):
        table = log_prob_fn(torch.tensor([b for b, _ in beams], device=input_ids.device))
        out_dtype = table.dtype
        options = []
        for (seq, raw), row in zip(beams, table.tolist()):
            options += [(raw + v, seq + [w]) for w, v in enumerate(row)]
        options = sorted(options, key=lambda o: o[0], reverse=True)[:2 * num_beams]
        beams = []
        for rank, (raw, seq) in enumerate(options):
            if seq[-1] == eos_token_id or step == max_new_tokens:
                if rank < num_beams:
                    done.append({"seq": seq, "raw": raw, "norm": raw / step ** length_penalty})
            else:
                beams.append((seq, raw))
        done = sorted(done, key=lambda d: d["norm"], reverse=True)[:num_beams]
        beams = beams[:num_beams]
        if step == max_new_tokens or len(done) < num_beams:
            continue
        if early_stopping is True:
            break
        h = max_new_tokens if early_stopping == "never" and length_penalty > 0 else step
        if beams[0][1] / h ** length_penalty <= done[-1]["norm"]:
            break
    top = done[:num_return_sequences]
    width = max(len(d["seq"]) for d in top)
    seqs = torch.tensor([d["seq"] + [pad_token_id] * (width - len(d["seq"])) for d in top], device=input_ids.device)
    return seqs, torch.tensor([d["raw"] for d in top], dtype=out_dtype, device=input_ids.device)
