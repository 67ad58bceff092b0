# kata: conv2d
# why: loops over the kernel's taps; unpacks the stride tuple as (w, h) while padding and dilation are read (h, w)
# mistake: tuple_hw_swapped
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sw, sh = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    Ho = (H + 2 * ph - dh * (kH - 1) - 1) // sh + 1
    Wo = (W + 2 * pw - dw * (kW - 1) - 1) // sw + 1
    xp = F.pad(x, (pw, pw, ph, ph))
    xg = xp.reshape(N, groups, Cg, xp.shape[2], xp.shape[3])
    wg = weight.reshape(groups, C_out // groups, Cg, kH, kW)
    out = 0
    for i in range(kH):
        for j in range(kW):
            tap = xg[:, :, :, i * dh:i * dh + sh * (Ho - 1) + 1:sh, j * dw:j * dw + sw * (Wo - 1) + 1:sw]
            out = out + torch.einsum("ngchw,goc->ngohw", tap, wg[..., i, j])
    out = out.reshape(N, C_out, Ho, Wo)
    return out if bias is None else out + bias.reshape(1, -1, 1, 1)
