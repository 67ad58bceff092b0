# kata: greedy-generate
# why: Python lists per row, the cache passed by position, and one last call on the final token (n + 1 calls, accepted)
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    batch = input_ids.shape[0]
    rows = [[] for _ in range(batch)]
    done = [False] * batch
    logits, cache = model(input_ids)
    for _ in range(max_new_tokens):
        last = logits[:, -1, :]
        step = []
        for b in range(batch):
            if done[b]:
                tok = pad_token_id
            else:
                tok = int(torch.argmax(last[b]))
                if eos_token_id is not None and tok == eos_token_id:
                    done[b] = True
            rows[b].append(tok)
            step.append(tok)
        feed = torch.tensor(step, dtype=torch.long, device=input_ids.device).unsqueeze(1)
        logits, cache = model(feed, cache)
        if all(done):
            break
    new = torch.tensor(rows, dtype=torch.long, device=input_ids.device)
    return torch.cat([input_ids, new], dim=1)
