# kata: nms
# why: suppresses at IoU >= threshold, so an IoU equal to the threshold is dropped
# mistake: threshold_inclusive
import torch


def nms(boxes, scores, iou_threshold):
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1) * (y2 - y1)
    order = torch.sort(scores, descending=True, stable=True).indices
    suppressed = torch.zeros(len(order), dtype=torch.bool, device=boxes.device)
    keep = []
    for i in order.tolist():
        if suppressed[i]:
            continue
        keep.append(i)
        w = (torch.minimum(x2[i], x2) - torch.maximum(x1[i], x1)).clamp(min=0)
        h = (torch.minimum(y2[i], y2) - torch.maximum(y1[i], y1)).clamp(min=0)
        inter = w * h
        suppressed |= inter / (areas[i] + areas - inter) >= iou_threshold
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
