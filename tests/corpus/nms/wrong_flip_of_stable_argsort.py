# kata: nms
# why: the ascending stable sort flipped (argsort(stable=True).flip(0)): equal scores come last index first
# mistake: ties_reversed
import torch


def nms(boxes, scores, iou_threshold):
    order = torch.argsort(scores, stable=True).flip(0)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    lt = torch.maximum(boxes[:, None, :2], boxes[None, :, :2])
    rb = torch.minimum(boxes[:, None, 2:], boxes[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    iou = inter / (areas[:, None] + areas[None, :] - inter)
    removed = torch.zeros(boxes.shape[0], dtype=torch.bool)
    keep = []
    for i in order.tolist():
        if removed[i]:
            continue
        keep.append(i)
        removed |= iou[i].double() > iou_threshold
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
