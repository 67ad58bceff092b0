# kata: conv2d
# why: output size uses the stride, but window (i, j) starts at input (i, j) instead of (i*s, j*s)
# mistake: stride_ignored_in_input
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
    c_out, cg, kh, kw = weight.shape
    x = F.pad(x, (padding[1], padding[1], padding[0], padding[0]))
    eff_h = dilation[0] * (kh - 1) + 1
    eff_w = dilation[1] * (kw - 1) + 1
    h_out = (x.shape[2] - eff_h) // stride[0] + 1
    w_out = (x.shape[3] - eff_w) // stride[1] + 1
    og = c_out // groups
    rows = []
    for i in range(h_out):
        cols = []
        for j in range(w_out):
            window = x[:, :, i:i + eff_h:dilation[0], j:j + eff_w:dilation[1]]
            parts = [window[:, g * cg:(g + 1) * cg].reshape(n, -1) @ weight[g * og:(g + 1) * og].reshape(og, -1).t()
                     for g in range(groups)]
            cols.append(torch.cat(parts, dim=1))
        rows.append(torch.stack(cols, dim=-1))
    out = torch.stack(rows, dim=-2)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
