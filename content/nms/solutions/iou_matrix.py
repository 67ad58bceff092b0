# kata: nms
# mistake: none
import torch


def nms(boxes, scores, iou_threshold):
    n = boxes.size(0)
    if n == 0:
        return torch.empty(0, dtype=torch.int64, device=boxes.device)
    lt = torch.max(boxes[:, None, :2], boxes[None, :, :2])
    rb = torch.min(boxes[:, None, 2:], boxes[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    iou = inter / (area[:, None] + area[None, :] - inter)
    over = (iou > iou_threshold).tolist()
    order = scores.argsort(descending=True, stable=True).tolist()
    removed = [False] * n
    keep = []
    for i in order:
        if removed[i]:
            continue
        keep.append(i)
        for j in range(n):
            if over[i][j]:
                removed[j] = True
    return torch.as_tensor(keep, dtype=torch.int64).to(boxes.device)
