# kata: conv2d
# why: rounds the output size up and pads the bottom/right with zeros so the last window fits
# mistake: ceil_output_size
import math

import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C, H, W = x.shape
    O, Cg, kH, kW = weight.shape
    span_h, span_w = dh * (kH - 1) + 1, dw * (kW - 1) + 1
    Ho = math.ceil((H + 2 * ph - span_h) / sh) + 1
    Wo = math.ceil((W + 2 * pw - span_w) / sw) + 1
    extra_h = (Ho - 1) * sh + span_h - (H + 2 * ph)
    extra_w = (Wo - 1) * sw + span_w - (W + 2 * pw)
    xp = F.pad(x, (pw, pw + extra_w, ph, ph + extra_h))
    win = xp.unfold(2, span_h, sh).unfold(3, span_w, sw)[..., ::dh, ::dw]
    out = torch.einsum("ngchwpq,gocpq->ngohw", win.reshape(N, groups, Cg, Ho, Wo, kH, kW),
                       weight.reshape(groups, O // groups, Cg, kH, kW)).reshape(N, O, Ho, Wo)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
