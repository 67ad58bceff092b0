# kata: nms
import torch


def nms(boxes, scores, iou_threshold):
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1) * (y2 - y1)
    order = torch.sort(scores, descending=True, stable=True).indices
    suppressed = torch.zeros(len(scores), dtype=torch.bool, device=boxes.device)
    keep = []
    for i in order.tolist():
        if suppressed[i]:
            continue
        keep.append(i)
        w = torch.minimum(x2[i], x2) - torch.maximum(x1[i], x1)
        h = torch.minimum(y2[i], y2) - torch.maximum(y1[i], y1)
        inter = (w * h).clamp(min=0)
        suppressed |= inter / (areas[i] + areas - inter) > iou_threshold
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
