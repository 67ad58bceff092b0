# kata: conv2d
# why: F.pad(x, (p, p)) pads only the last dimension: the rows are never padded
# mistake: padding_width_only
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(stride, int):
        stride = (stride, stride)
    if isinstance(padding, int):
        padding = (padding, padding)
    if isinstance(dilation, int):
        dilation = (dilation, dilation)
    x = F.pad(x, (padding[1], padding[1]))
    N, C, H, W = x.shape
    O, Cg, kh, kw = weight.shape
    win = x.unfold(2, dilation[0] * (kh - 1) + 1, stride[0]).unfold(3, dilation[1] * (kw - 1) + 1, stride[1])
    win = win[..., ::dilation[0], ::dilation[1]]
    Ho, Wo = win.shape[2:4]
    win = win.reshape(N, groups, Cg, Ho, Wo, kh, kw)
    out = torch.einsum("ngcijpq,gocpq->ngoij", win, weight.reshape(groups, O // groups, Cg, kh, kw))
    out = out.reshape(N, O, Ho, Wo)
    return out if bias is None else out + bias.view(1, -1, 1, 1)
