# kata: conv2d
# why: loops over the kernel's kH*kW taps; each tap is one strided slice of the padded input and an einsum
# mistake: none
import torch
import torch.nn.functional as F


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = _pair(stride)
    ph, pw = _pair(padding)
    dh, dw = _pair(dilation)
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    H_out = (H + 2 * ph - dh * (kH - 1) - 1) // sh + 1
    W_out = (W + 2 * pw - dw * (kW - 1) - 1) // sw + 1
    xp = F.pad(x, (pw, pw, ph, ph))
    xg = xp.view(N, groups, Cg, H + 2 * ph, W + 2 * pw)
    wg = weight.view(groups, C_out // groups, Cg, kH, kW)
    out = x.new_zeros(N, groups, C_out // groups, H_out, W_out)
    for p in range(kH):
        for q in range(kW):
            r0, c0 = p * dh, q * dw
            patch = xg[:, :, :, r0:r0 + sh * (H_out - 1) + 1:sh, c0:c0 + sw * (W_out - 1) + 1:sw]
            out = out + torch.einsum("ngchw,goc->ngohw", patch, wg[:, :, :, p, q])
    out = out.reshape(N, C_out, H_out, W_out)
    if bias is not None:
        out = out + bias[None, :, None, None]
    return out
