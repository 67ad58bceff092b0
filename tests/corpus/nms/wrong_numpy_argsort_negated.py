# kata: nms
# why: the classic NumPy loop (order = np.argsort(-scores), a quicksort that does not keep ties in index order), everything else right
# mistake: unstable_sort
import numpy as np
import torch


def nms(boxes, scores, iou_threshold):
    b = boxes.detach().cpu().numpy()
    s = scores.detach().cpu().numpy()
    x1, y1, x2, y2 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    areas = (x2 - x1) * (y2 - y1)
    order = np.argsort(-s)
    keep = []
    while order.size > 0:
        i = order[0]
        keep.append(int(i))
        xx1 = np.maximum(x1[i], x1[order[1:]])
        yy1 = np.maximum(y1[i], y1[order[1:]])
        xx2 = np.minimum(x2[i], x2[order[1:]])
        yy2 = np.minimum(y2[i], y2[order[1:]])
        inter = np.maximum(0.0, xx2 - xx1) * np.maximum(0.0, yy2 - yy1)
        iou = inter / (areas[i] + areas[order[1:]] - inter)
        order = order[1:][iou.astype(np.float64) <= iou_threshold]
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
