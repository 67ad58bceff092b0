# kata: conv2d
# why: the whole im2col runs under torch.no_grad() "to save memory": the output is right but has no graph
# mistake: no_gradient
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    with torch.no_grad():
        N, C_in, H, W = x.shape
        C_out, Cg, kH, kW = weight.shape
        xp = F.pad(x, (pw, pw, ph, ph))
        win = xp.unfold(2, dh * (kH - 1) + 1, sh).unfold(3, dw * (kW - 1) + 1, sw)[..., ::dh, ::dw]
        Ho, Wo = win.shape[2:4]
        out = torch.einsum("ngchwpq,gocpq->ngohw", win.reshape(N, groups, Cg, Ho, Wo, kH, kW),
                           weight.reshape(groups, C_out // groups, Cg, kH, kW)).reshape(N, C_out, Ho, Wo)
        if bias is not None:
            out += bias.view(1, -1, 1, 1)
    return out
