# kata: nms
# why: torchvision-style loop over the sorted boxes, one vectorised IoU row per kept box
# mistake: none
import torch


def nms(boxes, scores, iou_threshold):
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = (x2 - x1) * (y2 - y1)
    order = torch.sort(scores, descending=True, stable=True).indices
    alive = torch.ones(len(scores), dtype=torch.bool, device=boxes.device)
    keep = []
    for i in order.tolist():
        if not alive[i]:
            continue
        keep.append(i)
        w = (torch.min(x2[i], x2) - torch.max(x1[i], x1)).clamp(min=0)
        h = (torch.min(y2[i], y2) - torch.max(y1[i], y1)).clamp(min=0)
        inter = w * h
        iou = inter / (areas[i] + areas - inter)
        alive &= ~(iou > iou_threshold)
    return torch.tensor(keep, dtype=torch.long, device=boxes.device)
