# kata: conv2d
# why: puts all 2p rows and columns of padding after the image (F.pad(x, (0, 2*pw, 0, 2*ph))): the size is right, the windows are shifted
# mistake: padding_one_side
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    xp = F.pad(x, (0, 2 * pw, 0, 2 * ph))
    span_h, span_w = dh * (kH - 1) + 1, dw * (kW - 1) + 1
    win = xp.unfold(2, span_h, sh).unfold(3, span_w, sw)[..., ::dh, ::dw]
    Ho, Wo = win.shape[2], win.shape[3]
    win = win.reshape(N, groups, Cg, Ho, Wo, kH, kW)
    out = torch.einsum("ngchwpq,gocpq->ngohw", win, weight.reshape(groups, C_out // groups, Cg, kH, kW))
    out = out.reshape(N, C_out, Ho, Wo)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
