# kata: conv2d
# why: the padding goes after the image only (bottom and right), as if padding extended the array at its end
# mistake: padding_one_side
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    xp = F.pad(x, (0, pw, 0, ph))
    N, C, Hp, Wp = xp.shape
    O, Cg, kH, kW = weight.shape
    Ho = (Hp - dh * (kH - 1) - 1) // sh + 1
    Wo = (Wp - dw * (kW - 1) - 1) // sw + 1
    xg = xp.reshape(N, groups, Cg, Hp, Wp)
    wg = weight.reshape(groups, O // groups, Cg, kH, kW)
    out = x.new_zeros(N, groups, O // groups, Ho, Wo)
    for p in range(kH):
        for q in range(kW):
            tap = xg[..., p * dh:p * dh + sh * (Ho - 1) + 1:sh, q * dw:q * dw + sw * (Wo - 1) + 1:sw]
            out = out + torch.einsum("ngchw,goc->ngohw", tap, wg[..., p, q])
    out = out.reshape(N, O, Ho, Wo)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
