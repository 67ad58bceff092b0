# kata: nms
# why: visits the boxes in torch.argsort(scores, descending=True) order, an unstable sort: boxes with equal scores may come in any order
# mistake: unstable_sort
import torch


def nms(boxes, scores, iou_threshold):
    order = torch.argsort(scores, descending=True)
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    area = (x2 - x1) * (y2 - y1)
    alive = torch.ones(len(scores), dtype=torch.bool)
    keep = []
    for i in order.tolist():
        if not alive[i]:
            continue
        keep.append(i)
        iw = (torch.min(x2[i], x2) - torch.max(x1[i], x1)).clamp(min=0)
        ih = (torch.min(y2[i], y2) - torch.max(y1[i], y1)).clamp(min=0)
        inter = iw * ih
        iou = inter / (area[i] + area - inter)
        alive &= ~(iou.double() > iou_threshold)
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
