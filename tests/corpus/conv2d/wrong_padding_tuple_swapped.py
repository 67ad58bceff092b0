# kata: conv2d
# why: as_strided windows; the padding tuple is read (w, h) (pw, ph = padding), stride and dilation the right way round
# mistake: tuple_hw_swapped
import torch
import torch.nn.functional as F


def _two(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = _two(stride)
    pw, ph = _two(padding)
    dh, dw = _two(dilation)
    N, C, H, W = x.shape
    O, Cg, kh, kw = weight.shape
    xp = F.pad(x, (pw, pw, ph, ph)).contiguous()
    Hp, Wp = xp.shape[-2:]
    Ho = (Hp - dh * (kh - 1) - 1) // sh + 1
    Wo = (Wp - dw * (kw - 1) - 1) // sw + 1
    sN, sC, sH, sW = xp.stride()
    cols = xp.as_strided((N, C, Ho, Wo, kh, kw), (sN, sC, sH * sh, sW * sw, sH * dh, sW * dw))
    cols = cols.reshape(N, groups, Cg, Ho, Wo, kh, kw)
    y = torch.einsum("ngchwij,gocij->ngohw", cols, weight.reshape(groups, O // groups, Cg, kh, kw))
    y = y.reshape(N, O, Ho, Wo)
    if bias is not None:
        y = y + bias[None, :, None, None]
    return y
