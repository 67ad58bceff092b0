# kata: nms
# why: returns the kept indices sorted (a boolean keep mask turned into indices), not in kept order
# mistake: kept_indices_sorted
import torch


def nms(boxes, scores, iou_threshold):
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1) * (y2 - y1)
    order = torch.sort(scores, descending=True, stable=True).indices
    kept = torch.zeros(len(scores), dtype=torch.bool, device=boxes.device)
    removed = torch.zeros_like(kept)
    for i in order.tolist():
        if removed[i]:
            continue
        kept[i] = True
        w = (torch.minimum(x2[i], x2) - torch.maximum(x1[i], x1)).clamp(min=0)
        h = (torch.minimum(y2[i], y2) - torch.maximum(y1[i], y1)).clamp(min=0)
        inter = w * h
        removed |= inter / (areas[i] + areas - inter) > iou_threshold
    return torch.nonzero(kept).flatten()
