# kata: conv2d
# why: the output size counts the dilation, but each window is the first kH x kW pixels at its corner (taps side by side)
# mistake: dilation_ignored
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride,) * 2 if isinstance(stride, int) else stride
    ph, pw = (padding,) * 2 if isinstance(padding, int) else padding
    dh, dw = (dilation,) * 2 if isinstance(dilation, int) else dilation
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    Ho = (H + 2 * ph - dh * (kH - 1) - 1) // sh + 1
    Wo = (W + 2 * pw - dw * (kW - 1) - 1) // sw + 1
    xp = F.pad(x, (pw, pw, ph, ph))
    xg = xp.reshape(N, groups, Cg, *xp.shape[2:])
    wg = weight.reshape(groups, C_out // groups, Cg, kH, kW)
    acc = []
    for p in range(kH):
        for q in range(kW):
            sl = xg[..., p:p + sh * (Ho - 1) + 1:sh, q:q + sw * (Wo - 1) + 1:sw]
            acc.append(torch.einsum("ngchw,goc->ngohw", sl, wg[..., p, q]))
    out = torch.stack(acc).sum(0).reshape(N, C_out, Ho, Wo)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
