# kata: nms
# why: sorts ascending and walks from the start: the lowest score is kept first
# mistake: ascending_scores
import torch


def nms(boxes, scores, iou_threshold):
    b = boxes.tolist()
    order = sorted(range(len(b)), key=lambda i: scores[i].item())
    keep = []
    for i in order:
        drop = False
        for k in keep:
            w = max(0.0, min(b[i][2], b[k][2]) - max(b[i][0], b[k][0]))
            h = max(0.0, min(b[i][3], b[k][3]) - max(b[i][1], b[k][1]))
            inter = w * h
            a_i = (b[i][2] - b[i][0]) * (b[i][3] - b[i][1])
            a_k = (b[k][2] - b[k][0]) * (b[k][3] - b[k][1])
            if inter / (a_i + a_k - inter) > iou_threshold:
                drop = True
        if not drop:
            keep.append(i)
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
