# kata: conv2d
# why: dilation enters the output size but the taps are still read next to each other
# mistake: dilation_ignored
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
    xg = F.pad(x, (pw, pw, ph, ph)).view(N, groups, Cg, H + 2 * ph, W + 2 * pw)
    wg = weight.view(groups, C_out // groups, Cg, kH, kW)
    out = x.new_zeros(N, groups, C_out // groups, H_out, W_out)
    for p in range(kH):
        for q in range(kW):
            patch = xg[:, :, :, p:p + sh * (H_out - 1) + 1:sh, q:q + sw * (W_out - 1) + 1:sw]
            out = out + torch.einsum("ngchw,goc->ngohw", patch, wg[:, :, :, p, q])
    out = out.reshape(N, C_out, H_out, W_out)
    if bias is not None:
        out = out + bias[None, :, None, None]
    return out
