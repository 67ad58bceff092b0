# kata: conv2d
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C, H, W = x.shape
    O, Cg, kH, kW = weight.shape
    Ho = (H + 2 * ph - dh * (kH - 1) - 1) // sh + 1
    Wo = (W + 2 * pw - dw * (kW - 1) - 1) // sw + 1
    xp = F.pad(x, (pw, pw, ph, ph)).reshape(N, groups, Cg, H + 2 * ph, W + 2 * pw)
    wg = weight.reshape(groups, O // groups, Cg, kH, kW)
    out = 0
    for p in range(kH):
        for q in range(kW):
            sl = xp[..., p * dh:p * dh + sh * (Ho - 1) + 1:sh, q * dw:q * dw + sw * (Wo - 1) + 1:sw]
            out = out + torch.einsum("ngchw,goc->ngohw", sl, wg[..., kH - 1 - p, kW - 1 - q])
    out = out.reshape(N, O, Ho, Wo)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
