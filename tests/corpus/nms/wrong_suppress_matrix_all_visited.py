# kata: nms
# why: IoU matrix; every box in score order suppresses the later ones, including boxes already suppressed
# mistake: suppressed_still_suppress
import torch


def nms(boxes, scores, iou_threshold):
    order = torch.sort(scores, descending=True, stable=True).indices
    bx = boxes[order]
    area = (bx[:, 2] - bx[:, 0]) * (bx[:, 3] - bx[:, 1])
    xx1 = torch.maximum(bx[:, None, 0], bx[None, :, 0])
    yy1 = torch.maximum(bx[:, None, 1], bx[None, :, 1])
    xx2 = torch.minimum(bx[:, None, 2], bx[None, :, 2])
    yy2 = torch.minimum(bx[:, None, 3], bx[None, :, 3])
    inter = (xx2 - xx1).clamp(min=0) * (yy2 - yy1).clamp(min=0)
    iou = inter / (area[:, None] + area[None, :] - inter)
    n = bx.shape[0]
    dead = torch.zeros(n, dtype=torch.bool)
    for a in range(n):
        for c in range(a + 1, n):
            if float(iou[a, c]) > iou_threshold:
                dead[c] = True
    return order[~dead].to(torch.int64)
