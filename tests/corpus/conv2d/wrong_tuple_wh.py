# kata: conv2d
# why: unpacks tuple arguments as (w, h), like an image's (width, height)
# mistake: tuple_hw_swapped
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sw, sh = (stride, stride) if isinstance(stride, int) else stride
    pw, ph = (padding, padding) if isinstance(padding, int) else padding
    dw, dh = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C, H, W = x.shape
    O, Cg, kH, kW = weight.shape
    xp = F.pad(x, (pw, pw, ph, ph))
    win = xp.unfold(2, dh * (kH - 1) + 1, sh).unfold(3, dw * (kW - 1) + 1, sw)[:, :, :, :, ::dh, ::dw]
    Ho, Wo = win.shape[2], win.shape[3]
    out = torch.einsum("ngchwpq,gocpq->ngohw", win.reshape(N, groups, Cg, Ho, Wo, kH, kW),
                       weight.reshape(groups, O // groups, Cg, kH, kW)).reshape(N, O, Ho, Wo)
    if bias is not None:
        out = out + bias.view(1, O, 1, 1)
    return out
