# kata: top-p
# why: plain Python per row: sort the indices by logit, walk down adding probabilities
import math

import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    out = logits.clone()
    for b in range(out.shape[0]):
        row = [float(v) for v in logits[b]]
        order = sorted(range(len(row)), key=lambda i: -row[i])
        keep = order if top_k <= 0 or top_k >= len(row) else order[:top_k]
        if top_p < 1.0:
            m = row[keep[0]]
            weights = [math.exp(row[i] - m) if row[i] != -math.inf else 0.0 for i in keep]
            total = sum(weights)
            mass, nucleus = 0.0, []
            for i, w in zip(keep, weights):
                if mass >= top_p:
                    break
                nucleus.append(i)
                mass += w / total
            keep = nucleus
        removed = [i for i in range(len(row)) if i not in set(keep)]
        if removed:
            out[b, removed] = float("-inf")
    return out
