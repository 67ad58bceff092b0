# kata: nms
# mistake: none
import torch


def iou(a, b):
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    return inter / (area_a + area_b - inter)


def nms(boxes, scores, iou_threshold):
    b = boxes.tolist()
    s = scores.tolist()
    order = sorted(range(len(s)), key=lambda i: -s[i])  # sorted() is stable
    keep = []
    for i in order:
        if all(iou(b[k], b[i]) <= iou_threshold for k in keep):
            keep.append(i)
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
