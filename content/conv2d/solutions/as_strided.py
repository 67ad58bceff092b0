# kata: conv2d
# mistake: none
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C, H, W = x.shape
    O, Cg, kh, kw = weight.shape
    xp = F.pad(x, [pw, pw, ph, ph]).contiguous()
    Hp, Wp = xp.shape[-2:]
    Ho = (Hp - dh * (kh - 1) - 1) // sh + 1
    Wo = (Wp - dw * (kw - 1) - 1) // sw + 1
    sN, sC, sH, sW = xp.stride()
    cols = xp.as_strided((N, C, kh, kw, Ho, Wo), (sN, sC, sH * dh, sW * dw, sH * sh, sW * sw))
    outs = []
    og = O // groups
    for g in range(groups):
        cg = cols[:, g * Cg:(g + 1) * Cg].reshape(N, Cg * kh * kw, Ho * Wo)
        wg = weight[g * og:(g + 1) * og].reshape(og, Cg * kh * kw)
        outs.append((wg @ cg).view(N, og, Ho, Wo))
    y = torch.cat(outs, dim=1)
    if bias is not None:
        y = y + bias.view(1, -1, 1, 1)
    return y
