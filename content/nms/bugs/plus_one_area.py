# kata: nms
import torch


def nms(boxes, scores, iou_threshold):
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1 + 1) * (y2 - y1 + 1)
    order = torch.sort(scores, descending=True, stable=True).indices.tolist()
    keep = []
    while order:
        i = order.pop(0)
        keep.append(i)
        if not order:
            break
        rest = torch.tensor(order, device=boxes.device)
        w = (torch.minimum(x2[i], x2[rest]) - torch.maximum(x1[i], x1[rest]) + 1).clamp(min=0)
        h = (torch.minimum(y2[i], y2[rest]) - torch.maximum(y1[i], y1[rest]) + 1).clamp(min=0)
        inter = w * h
        iou = inter / (areas[i] + areas[rest] - inter)
        order = [j for j, o in zip(order, iou.tolist()) if o <= iou_threshold]
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
