# kata: nms
import torch


def nms(boxes, scores, iou_threshold):
    order = torch.argsort(scores, stable=True).flip(0).tolist()
    b = boxes.tolist()
    keep = []
    for i in order:
        ok = True
        for k in keep:
            w = max(0.0, min(b[i][2], b[k][2]) - max(b[i][0], b[k][0]))
            h = max(0.0, min(b[i][3], b[k][3]) - max(b[i][1], b[k][1]))
            inter = w * h
            union = (b[i][2] - b[i][0]) * (b[i][3] - b[i][1]) + (b[k][2] - b[k][0]) * (b[k][3] - b[k][1]) - inter
            if inter / union > iou_threshold:
                ok = False
                break
        if ok:
            keep.append(i)
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
