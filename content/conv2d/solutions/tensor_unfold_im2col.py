# kata: conv2d
# mistake: none
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    to2 = lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v, v)
    (sh, sw), (ph, pw), (dh, dw) = to2(stride), to2(padding), to2(dilation)
    N, C, _, _ = x.shape
    O, Cg, kH, kW = weight.shape
    x = F.pad(x, (pw, pw, ph, ph))
    win = x.unfold(2, dh * (kH - 1) + 1, sh).unfold(3, dw * (kW - 1) + 1, sw)
    win = win[:, :, :, :, ::dh, ::dw]
    Ho, Wo = win.shape[2], win.shape[3]
    win = win.reshape(N, groups, Cg, Ho, Wo, kH, kW)
    k = weight.reshape(groups, O // groups, Cg, kH, kW)
    y = torch.einsum("bgcijkl,gockl->bgoij", win, k).reshape(N, O, Ho, Wo)
    return y if bias is None else y + bias[:, None, None]
