# kata: nms
# why: a box is dropped if any higher-ranked box overlaps it, even one that was itself suppressed
# mistake: suppressed_still_suppress
import torch


def nms(boxes, scores, iou_threshold):
    n = boxes.shape[0]
    order = torch.sort(scores, descending=True, stable=True).indices
    b = boxes[order]
    lt = torch.max(b[:, None, :2], b[None, :, :2])
    rb = torch.min(b[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    iou = inter / (area[:, None] + area[None, :] - inter)
    dominated = (iou.triu(diagonal=1) > iou_threshold).any(dim=0)
    return order[~dominated] if n else torch.empty(0, dtype=torch.int64, device=boxes.device)
