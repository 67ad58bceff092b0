# kata: conv2d
# why: one loop over the groups; group g takes input channels x[:, g::groups] (interleaved) and writes a contiguous block of outputs
# mistake: groups_interleaved
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    opg = C_out // groups
    xp = F.pad(x, (pw, pw, ph, ph))
    outs = []
    for g in range(groups):
        xs = xp[:, g::groups]
        win = xs.unfold(2, dh * (kH - 1) + 1, sh).unfold(3, dw * (kW - 1) + 1, sw)[..., ::dh, ::dw]
        outs.append(torch.einsum("nchwpq,ocpq->nohw", win, weight[g * opg:(g + 1) * opg]))
    out = torch.cat(outs, dim=1)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
