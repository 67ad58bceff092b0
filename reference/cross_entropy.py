"""Cross-entropy over classes with ignore_index and label smoothing, as a mean over the kept rows.

Each kept row n contributes the cross-entropy between the smoothed target distribution
q = (1 - eps) * onehot(y_n) + eps / K (Szegedy et al., "Rethinking the Inception Architecture for
Computer Vision", 2016, §7: label-smoothing regularisation, u(k) = 1/K over all K classes) and
p = softmax(logits_n):  H(q, p) = (1 - eps) * (-log p[y]) + (eps / K) * sum_k (-log p[k]).
log p comes from the log-sum-exp with the max taken out, so logits of +-1e4 stay finite.
Rows whose target equals ignore_index count in neither the sum nor the count; if every row is
ignored the loss is 0, still in the graph (torch's F.cross_entropy gives NaN there).
"""
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    """logits: [N, K] float; targets: [N] int64. Returns a 0-dim tensor in logits' dtype."""
    assert logits.dim() == 2 and targets.shape == logits.shape[:1], \
        f"expected logits [N, K] and targets [N], got {tuple(logits.shape)} and {tuple(targets.shape)}"
    x = logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits  # half: math in float32
    m = x.max(dim=-1, keepdim=True).values.detach()  # (N, 1) a constant shift: exponents <= 0
    log_p = x - m - torch.log(torch.exp(x - m).sum(dim=-1, keepdim=True))  # (N, K) log softmax
    keep = targets != ignore_index  # (N,) rows that count
    y = torch.where(keep, targets, torch.zeros_like(targets))  # ignored rows point at class 0, then drop out
    nll = -log_p.gather(1, y[:, None]).squeeze(1)  # (N,) -log p[y]
    uniform = -log_p.mean(dim=-1)  # (N,) (1/K) sum_k -log p[k]
    per_row = (1 - label_smoothing) * nll + label_smoothing * uniform  # (N,)
    total = (per_row * keep.to(x.dtype)).sum()  # ignored rows add an exact 0, and a zero gradient
    count = keep.sum().clamp(min=1)  # no kept row: 0 / 1 = 0, not 0 / 0
    return (total / count).to(logits.dtype)
