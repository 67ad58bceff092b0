# kata: conv2d
# mistake: none
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(stride, int):
        stride = (stride, stride)
    if isinstance(padding, int):
        padding = (padding, padding)
    if isinstance(dilation, int):
        dilation = (dilation, dilation)
    n, c_in, h, w = x.shape
    c_out, c_per_group, kh, kw = weight.shape
    x = F.pad(x, (padding[1], padding[1], padding[0], padding[0]))
    eff_h = dilation[0] * (kh - 1) + 1
    eff_w = dilation[1] * (kw - 1) + 1
    h_out = (x.shape[2] - eff_h) // stride[0] + 1
    w_out = (x.shape[3] - eff_w) // stride[1] + 1
    out_per_group = c_out // groups
    rows = []
    for i in range(h_out):
        cols = []
        for j in range(w_out):
            top, left = i * stride[0], j * stride[1]
            window = x[:, :, top:top + eff_h:dilation[0], left:left + eff_w:dilation[1]]  # n, c_in, kh, kw
            per_group = []
            for g in range(groups):
                xs = window[:, g * c_per_group:(g + 1) * c_per_group].reshape(n, -1)
                ws = weight[g * out_per_group:(g + 1) * out_per_group].reshape(out_per_group, -1)
                per_group.append(xs @ ws.t())
            cols.append(torch.cat(per_group, dim=1))
        rows.append(torch.stack(cols, dim=-1))
    out = torch.stack(rows, dim=-2)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
