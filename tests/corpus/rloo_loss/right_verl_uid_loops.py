# kata: rloo-loss
# why: verl's compute_rloo_outcome_advantage adapted: scores grouped by prompt id in a dict, Python loops
import torch
from collections import defaultdict


def rloo_loss(log_probs, rewards, k, mask=None):
    N = rewards.shape[0]
    index = [i // k for i in range(N)]  # prompt id of each row
    scores = rewards.detach().clone()
    id2score = defaultdict(list)
    id2mean = {}
    with torch.no_grad():
        for i in range(N):
            id2score[index[i]].append(scores[i])
        for idx in id2score:
            if len(id2score[idx]) == 1:
                id2mean[idx] = torch.tensor(0.0, dtype=scores.dtype, device=scores.device)
            else:
                id2mean[idx] = torch.mean(torch.stack(id2score[idx]))
        for i in range(N):
            response_num = len(id2score[index[i]])
            if response_num > 1:
                scores[i] = scores[i] * response_num / (response_num - 1) - id2mean[index[i]] * response_num / (response_num - 1)
            else:
                scores[i] = scores[i] * 0
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    seq_logp = (torch.where(m > 0, log_probs, torch.zeros_like(log_probs))).sum(-1)
    return -(scores.to(log_probs.dtype) * seq_logp).mean(), scores
