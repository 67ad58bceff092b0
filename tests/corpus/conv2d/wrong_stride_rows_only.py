# kata: conv2d
# why: as_strided windows that step sh rows down but one column across: the stride reaches the output size, not the column index
# mistake: stride_ignored_in_input
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else tuple(stride)
    ph, pw = (padding, padding) if isinstance(padding, int) else tuple(padding)
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else tuple(dilation)
    N, C, H, W = x.shape
    O, Cg, kh, kw = weight.shape
    xp = F.pad(x, (pw, pw, ph, ph)).contiguous()
    Ho = (H + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    Wo = (W + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    a, b, c, d = xp.stride()
    cols = xp.as_strided((N, C, Ho, Wo, kh, kw), (a, b, c * sh, d, c * dh, d * dw))
    y = torch.einsum("ngchwij,gocij->ngohw", cols.reshape(N, groups, Cg, Ho, Wo, kh, kw),
                     weight.reshape(groups, O // groups, Cg, kh, kw)).reshape(N, O, Ho, Wo)
    return y if bias is None else y + bias.view(1, -1, 1, 1)
