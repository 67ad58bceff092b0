# kata: conv2d
# why: a zero canvas of the padded size with the image copied in at (2*ph, 2*pw): all the padding before the image, the loops over the kernel taps
# mistake: padding_one_side
import torch


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    canvas = x.new_zeros(N, C_in, H + 2 * ph, W + 2 * pw)
    canvas[:, :, 2 * ph:, 2 * pw:] = x
    Ho = (H + 2 * ph - dh * (kH - 1) - 1) // sh + 1
    Wo = (W + 2 * pw - dw * (kW - 1) - 1) // sw + 1
    xg = canvas.view(N, groups, Cg, H + 2 * ph, W + 2 * pw)
    wg = weight.view(groups, C_out // groups, Cg, kH, kW)
    out = x.new_zeros(N, groups, C_out // groups, Ho, Wo)
    for p in range(kH):
        for q in range(kW):
            sl = xg[:, :, :, p * dh:p * dh + sh * (Ho - 1) + 1:sh, q * dw:q * dw + sw * (Wo - 1) + 1:sw]
            out = out + torch.einsum("ngchw,goc->ngohw", sl, wg[..., p, q])
    out = out.reshape(N, C_out, Ho, Wo)
    if bias is not None:
        out = out + bias[None, :, None, None]
    return out
