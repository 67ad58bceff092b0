"""Greedy non-maximum suppression, as `torchvision.ops.nms` (its CPU kernel, torchvision/csrc/ops/cpu/nms_kernel.cpp).

Visit the boxes by decreasing score (a stable sort: equal scores in index order); keep a box unless a box
already kept overlaps it with IoU > iou_threshold, then it suppresses every later box it overlaps that much.
Boxes are (x1, y1, x2, y2) in continuous coordinates: area (x2 − x1)·(y2 − y1), no "+1" (the pixel-inclusive
convention of the R-CNN era, py-faster-rcnn's nms.py, Girshick 2015); the intersection is clamped at 0 on
each axis before the product, IoU = inter / (area_i + area_j − inter).
"""
import torch


def nms(boxes, scores, iou_threshold):
    """boxes [N, 4] (x1, y1, x2, y2); scores [N]; returns the kept indices, int64 [K], in the order kept."""
    N = boxes.shape[0]
    assert boxes.shape == (N, 4) and scores.shape == (N,), "boxes [N, 4] and scores [N]"
    x1, y1, x2, y2 = boxes.unbind(1)  # (N,) each
    areas = (x2 - x1) * (y2 - y1)  # (N,)
    order = torch.sort(scores, descending=True, stable=True).indices  # ties: lower index first
    suppressed = torch.zeros(N, dtype=torch.bool, device=boxes.device)
    keep = []
    for i in order.tolist():
        if suppressed[i]:
            continue  # a suppressed box suppresses nothing
        keep.append(i)
        w = (torch.minimum(x2[i], x2) - torch.maximum(x1[i], x1)).clamp(min=0)  # (N,) overlap on x, 0 if none
        h = (torch.minimum(y2[i], y2) - torch.maximum(y1[i], y1)).clamp(min=0)
        inter = w * h
        iou = inter / (areas[i] + areas - inter)  # in boxes' dtype, as the kernel computes it
        suppressed |= iou.double() > iou_threshold  # the kernel compares with the threshold as a double
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)
