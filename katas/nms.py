# kata: nms
import torch


def nms(boxes, scores, iou_threshold):
    raise NotImplementedError("write nms")
