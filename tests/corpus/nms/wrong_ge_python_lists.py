# kata: nms
# why: pure Python lists and a while loop over the sorted indices; drops a box whose IoU is >= the threshold
# mistake: threshold_inclusive
import torch


def nms(boxes, scores, iou_threshold):
    b = boxes.tolist()
    s = scores.tolist()
    order = sorted(range(len(s)), key=lambda i: (-s[i], i))
    keep = []
    while order:
        i = order.pop(0)
        keep.append(i)
        rest = []
        for j in order:
            w = max(0.0, min(b[i][2], b[j][2]) - max(b[i][0], b[j][0]))
            h = max(0.0, min(b[i][3], b[j][3]) - max(b[i][1], b[j][1]))
            inter = w * h
            a_i = (b[i][2] - b[i][0]) * (b[i][3] - b[i][1])
            a_j = (b[j][2] - b[j][0]) * (b[j][3] - b[j][1])
            if inter / (a_i + a_j - inter) < iou_threshold:
                rest.append(j)
        order = rest
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
