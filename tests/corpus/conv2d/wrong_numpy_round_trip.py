# kata: conv2d
# why: computes in NumPy and wraps the result back: right values, but no gradient reaches x, weight or bias
# mistake: no_gradient
import numpy as np
import torch


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    xn = np.pad(x.detach().cpu().numpy(), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    wn = weight.detach().cpu().numpy()
    N, C, Hp, Wp = xn.shape
    O, Cg, kH, kW = wn.shape
    Ho = (Hp - dh * (kH - 1) - 1) // sh + 1
    Wo = (Wp - dw * (kW - 1) - 1) // sw + 1
    og = O // groups
    out = np.zeros((N, O, Ho, Wo), dtype=xn.dtype)
    for o in range(O):
        g = o // og
        for p in range(kH):
            for q in range(kW):
                tap = xn[:, g * Cg:(g + 1) * Cg, p * dh:p * dh + sh * (Ho - 1) + 1:sh, q * dw:q * dw + sw * (Wo - 1) + 1:sw]
                out[:, o] += np.einsum("nchw,c->nhw", tap, wn[o, :, p, q])
    if bias is not None:
        out += bias.detach().cpu().numpy()[None, :, None, None]
    return torch.from_numpy(out).to(x.device)
